# Sourced by the driver benchmarks (driver.sh, replay-lag.sh, live-overhead.sh): the cheap endpoint
# they measure against. nginx_endpoint WORK writes WORK/nginx.conf (one worker, no daemon, keep-alive
# without end, every request answered with a 112-byte Solr-like JSON body on 127.0.0.1:18080) and
# WORK/queries.txt (two queries).
nginx_endpoint() {
  local work=$1
  mkdir -p "$work/logs"
  local body='{"responseHeader":{"status":0,"QTime":0},"response":{"numFound":42,"start":0,"numFoundExact":true,"docs":[]}}'
  cat > "$work/nginx.conf" <<CONF
worker_processes 1;
daemon off;
pid $work/nginx.pid;
error_log $work/logs/error.log;
events { worker_connections 4096; }
http {
  access_log off;
  keepalive_requests 100000000;
  keepalive_timeout 120;
  server {
    listen 127.0.0.1:18080;
    location / { default_type application/json; return 200 '$body'; }
  }
}
CONF
  printf 'q=*:*&rows=10\nq=body_t:solr&rows=10\n' > "$work/queries.txt"
}
