#!/usr/bin/env bash
# The driver's cost over TLS (docs/bench/driver-tls.md): `solrscale bench` at its maximum rate against
# wrk, both over plain HTTP and over TLS, in one run, against one nginx worker pinned to core 0
# that answers every request with a small Solr-like JSON body (the same body on port 18080 plain,
# 18443 TLS with an EC P-256 certificate a throwaway CA signed); each client pinned to core 1, 16
# keep-alive connections, SECONDS each, alternated twice. Needs nginx-light (or nginx), wrk, openssl.
# Usage: docs/bench/driver-tls.sh [WORKDIR] [SECONDS]
set -euo pipefail
work=${1:-/tmp/solrscale-bench-driver-tls}; secs=${2:-10}
root="$(cd "$(dirname "$0")/../.." && pwd)"
s="$root/solrscale"
command -v nginx >/dev/null && command -v wrk >/dev/null && command -v openssl >/dev/null \
  || { echo "install nginx-light, wrk and openssl first" >&2; exit 3; }
mkdir -p "$work/logs"
cd "$work"
# a throwaway CA and a server certificate for 127.0.0.1 (nothing here is secret)
openssl ecparam -name prime256v1 -genkey -noout -out ca.key
openssl req -x509 -new -key ca.key -subj "/CN=bench CA" -days 2 -out ca.pem
openssl ecparam -name prime256v1 -genkey -noout -out server.key
openssl req -new -key server.key -subj "/CN=127.0.0.1" -out server.csr
printf 'subjectAltName=IP:127.0.0.1\n' > san.ext
openssl x509 -req -in server.csr -CA ca.pem -CAkey ca.key -CAcreateserial -days 2 \
  -extfile san.ext -out server.pem 2>/dev/null
rm -f trust.p12
keytool -importcert -noprompt -alias ca -file ca.pem -keystore trust.p12 -storetype PKCS12 \
  -storepass benchpw >/dev/null 2>&1
body='{"responseHeader":{"status":0,"QTime":0},"response":{"numFound":42,"start":0,"numFoundExact":true,"docs":[]}}'
cat > nginx.conf <<CONF
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
    listen 127.0.0.1:18443 ssl;
    ssl_certificate $work/server.pem;
    ssl_certificate_key $work/server.key;
    ssl_protocols TLSv1.3;
    location / { default_type application/json; return 200 '$body'; }
  }
}
CONF
printf 'q=*:*&rows=10\nq=body_t:solr&rows=10\n' > queries.txt
"$s" --version >/dev/null
taskset -c 0 nginx -c "$work/nginx.conf" -p "$work" &
nginx_pid=$!
trap 'kill -QUIT "$nginx_pid" 2>/dev/null || true; wait "$nginx_pid" 2>/dev/null || true' EXIT
sleep 1
summarize='import json, sys
d = json.load(sys.stdin)
print("%.0f (driver CPU %.0f%%, errors %d; %s)" % (d["throughput"]["achieved"],
      d["driver"]["cpu_percent"], d["errors"]["total"], d["driver"]["bottleneck"]))'
wrk_run() { taskset -c 1 wrk -t1 -c16 -d"${secs}s" "$1/c/select?q=*:*&rows=10" | awk '/Requests\/sec/ {print $2}'; }
ours_run() {
  SOLRSCALE_TRUSTSTORE_PASSWORD=benchpw taskset -c 1 "$s" bench --url "$1" ${2:+--truststore "$2"} \
    --collection c --queries queries.txt --threads 16 --connections 16 --warmup 3s \
    --duration "${secs}s" --json 2>/dev/null | python3 -c "$summarize"
}
for run in 1 2; do
  echo "run $run plain wrk:       $(wrk_run http://127.0.0.1:18080/solr) req/s"
  echo "run $run plain solrscale: $(ours_run http://127.0.0.1:18080/solr) req/s"
  echo "run $run tls   wrk:       $(wrk_run https://127.0.0.1:18443/solr) req/s"
  echo "run $run tls   solrscale: $(ours_run https://127.0.0.1:18443/solr "$work/trust.p12") req/s"
done
