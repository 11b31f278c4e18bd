#define _GNU_SOURCE
// Diagnostic HTTP/1.1 keep-alive closed-loop client (tools for RESULTS.md, not the harness): N connections,
// D seconds, GET /1k.bin; records per-request latency
// with CLOCK_MONOTONIC, prints percentiles and writes slow requests (conn local port, send ns, recv ns) to a file.
// usage: http-burst-client PORT CONNECTIONS SECONDS SLOWFILE [DEFER]
//   DEFER=1 sends the next requests after the whole epoll batch was read (as wrk does, one loop later).
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
static long now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec*1000000000L+t.tv_nsec;}
typedef struct {int fd; int port; long start; int got; int need; int hdrdone; char buf[4096]; int blen;} conn;
static int cmpl(const void*a,const void*b){long x=*(long*)a,y=*(long*)b;return x<y?-1:x>y;}
int main(int argc,char**argv){
  if(argc<5){fprintf(stderr,"usage: %s PORT CONNECTIONS SECONDS SLOWFILE [DEFER]\n",argv[0]);return 2;}
  int port=atoi(argv[1]), n=atoi(argv[2]); int defer=argc>5?atoi(argv[5]):0; int*todo=malloc(n*sizeof(int)); int ntodo=0; double secs=atof(argv[3]); const char*out=argv[4];
  const char*req="GET /1k.bin HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"; int rlen=strlen(req);
  int ep=epoll_create1(0); conn*cs=calloc(n,sizeof(conn));
  long cap=20000000; long*lat=malloc(cap*sizeof(long)); long nl=0;
  FILE*slow=fopen(out,"w");
  for(int i=0;i<n;i++){int fd=socket(AF_INET,SOCK_STREAM,0);struct sockaddr_in a={0};a.sin_family=AF_INET;a.sin_port=htons(port);a.sin_addr.s_addr=htonl(0x7f000001);
    if(connect(fd,(void*)&a,sizeof a)){perror("connect");return 1;} int one=1; setsockopt(fd,IPPROTO_TCP,TCP_NODELAY,&one,4);
    struct sockaddr_in l; socklen_t ll=sizeof l; getsockname(fd,(void*)&l,&ll); cs[i].port=ntohs(l.sin_port);
    fcntl(fd,F_SETFL,O_NONBLOCK); cs[i].fd=fd; struct epoll_event e={.events=EPOLLIN,.data.u32=i}; epoll_ctl(ep,EPOLL_CTL_ADD,fd,&e);}
  long t0=now(), end=t0+(long)(secs*1e9);
  for(int i=0;i<n;i++){cs[i].start=now(); if(write(cs[i].fd,req,rlen)!=rlen){perror("write");return 1;}}
  struct epoll_event evs[256];
  while(now()<end){int k=epoll_wait(ep,evs,256,100);
    for(int j=0;j<k;j++){conn*c=&cs[evs[j].data.u32];
      for(;;){ssize_t r=read(c->fd,c->buf+c->blen,sizeof(c->buf)-c->blen); if(r<=0){ if(r==0){fprintf(stderr,"closed\n");return 1;} break;}
        c->blen+=r;
        for(;;){ if(!c->hdrdone){char*h=memmem(c->buf,c->blen,"\r\n\r\n",4); if(!h)break; char*cl=memmem(c->buf,h-c->buf,"Content-Length: ",16); c->need=cl?atoi(cl+16):0; int hl=h+4-c->buf; memmove(c->buf,c->buf+hl,c->blen-hl); c->blen-=hl; c->hdrdone=1;}
          if(c->blen<c->need)break; memmove(c->buf,c->buf+c->need,c->blen-c->need); c->blen-=c->need; c->hdrdone=0;
          long t=now(); long d=t-c->start; if(nl<cap)lat[nl++]=d; if(d>20000000) fprintf(slow,"%d %ld %ld\n",c->port,c->start,t);
          if(defer){todo[ntodo++]=evs[j].data.u32;} else {c->start=now(); if(write(c->fd,req,rlen)!=rlen){perror("write2");return 1;}} }
      }}
    for(int q=0;q<ntodo;q++){conn*c=&cs[todo[q]]; c->start=now(); if(write(c->fd,req,rlen)!=rlen){perror("write3");return 1;}} ntodo=0; }
  qsort(lat,nl,sizeof(long),cmpl);
  printf("req=%ld rps=%.0f p50=%.1f p90=%.1f p99=%.1f p99.9=%.1f max=%.1f ms\n",nl,nl/secs,lat[nl/2]/1e6,lat[nl*9/10]/1e6,lat[nl*99/100]/1e6,lat[nl*999/1000]/1e6,lat[nl-1]/1e6);
  fclose(slow); return 0;}
