/* The run's shared state: phase and first failure. */
#include "loadgen.h"

#include <stdarg.h>
#include <stdio.h>

_Atomic int phase = PH_RUN;
_Atomic int failed = 0;
char failure[512];

void fail(const char *fmt, ...)
{
    if (atomic_exchange(&failed, 1) != 0)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(failure, sizeof failure, fmt, ap);
    va_end(ap);
}
