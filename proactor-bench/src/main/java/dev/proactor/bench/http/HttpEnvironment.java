package dev.proactor.bench.http;

import java.nio.file.Path;

/**
 * What the benchmark prepared before the first run.
 *
 * @param docRoot  the document root with the files
 * @param wrk      the wrk executable
 * @param nginx    the nginx binary, or null when nginx does not run
 * @param nginxDir directory for nginx's pid and temp files, or null
 */
record HttpEnvironment(BenchDocRoot docRoot, Path wrk, NginxBinary nginx, Path nginxDir) {
}
