#!/usr/bin/env bash
# Install (apt) and start the database servers dbpress's tests and benchmarks use.
# Idempotent: safe to run again; it only installs what is missing and starts what is stopped.
#
#   scripts/services.sh            MariaDB (the default set)
#   scripts/services.sh mariadb    the same
#   scripts/services.sh sysbench   also installs sysbench (for bench/)
#
# Creates the `sbtest` user (password `sbtest`) and database `sbtest`, like sysbench's defaults.
set -euo pipefail

want_mariadb=1
want_sysbench=0
for arg in "$@"; do
  case "$arg" in
    mariadb) want_mariadb=1 ;;
    sysbench) want_sysbench=1 ;;
    *) echo "services.sh: unknown service '$arg' (known: mariadb, sysbench)" >&2; exit 2 ;;
  esac
done

SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi

missing=()
if [ "$want_mariadb" = 1 ] && ! command -v mariadbd >/dev/null 2>&1 && [ ! -x /usr/sbin/mariadbd ]; then
  missing+=(mariadb-server mariadb-client)
fi
if [ "$want_mariadb" = 1 ] && ! command -v openssl >/dev/null 2>&1; then
  missing+=(openssl)
fi
if [ "$want_sysbench" = 1 ] && ! command -v sysbench >/dev/null 2>&1; then
  missing+=(sysbench)
fi
if [ "${#missing[@]}" -gt 0 ]; then
  echo "services.sh: installing ${missing[*]}"
  $SUDO apt-get update -q
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q "${missing[@]}"
fi

mariadb_up() { mariadb-admin --protocol=socket -uroot ping >/dev/null 2>&1; }

# A test CA and a server certificate for 127.0.0.1/localhost, so TLS modes can be tested:
# --mysql-ssl=required|verify_ca|verify_identity --mysql-ssl-ca=$TLS_DIR/ca.pem
TLS_DIR=/etc/mysql/dbpress-tls
tls_config() {
  [ -f "$TLS_DIR/server-cert.pem" ] && [ -f /etc/mysql/mariadb.conf.d/90-dbpress-tls.cnf ] && return 0
  $SUDO mkdir -p "$TLS_DIR"
  (
    cd "$TLS_DIR"
    $SUDO openssl req -x509 -newkey rsa:2048 -nodes -days 3650 -subj "/CN=dbpress test CA" \
      -keyout ca-key.pem -out ca.pem 2>/dev/null
    $SUDO openssl req -newkey rsa:2048 -nodes -subj "/CN=127.0.0.1" \
      -keyout server-key.pem -out server.csr 2>/dev/null
    printf 'subjectAltName=IP:127.0.0.1,DNS:localhost\nbasicConstraints=CA:FALSE\n' | $SUDO tee ext.cnf >/dev/null
    $SUDO openssl x509 -req -in server.csr -CA ca.pem -CAkey ca-key.pem -CAcreateserial -days 3650 \
      -extfile ext.cnf -out server-cert.pem 2>/dev/null
    $SUDO chown mysql:mysql server-key.pem server-cert.pem ca.pem
    $SUDO chmod 600 server-key.pem
    $SUDO chmod 644 ca.pem server-cert.pem
  )
  printf '[mariadbd]\nssl_cert = %s/server-cert.pem\nssl_key = %s/server-key.pem\nssl_ca = %s/ca.pem\n' \
    "$TLS_DIR" "$TLS_DIR" "$TLS_DIR" | $SUDO tee /etc/mysql/mariadb.conf.d/90-dbpress-tls.cnf >/dev/null
  # A running server must restart to load the certificate.
  if mariadb_up; then $SUDO mariadb-admin --protocol=socket -uroot shutdown; sleep 1; fi
}

if [ "$want_mariadb" = 1 ]; then
  tls_config
  if ! mariadb_up; then
    echo "services.sh: starting MariaDB"
    $SUDO mkdir -p /run/mysqld
    $SUDO chown mysql:mysql /run/mysqld
    # The package's postinst does not start the server on machines without an init system.
    # max_connections is raised so that thread sweeps and the 1000-connection benchmark can run.
    (setsid nohup $SUDO mysqld_safe --user=mysql --max-connections=2000 \
        >/tmp/dbpress-mysqld_safe.log 2>&1 &)
    for _ in $(seq 1 60); do mariadb_up && break; sleep 1; done
    if ! mariadb_up; then
      echo "services.sh: MariaDB did not start; see /tmp/dbpress-mysqld_safe.log and /var/log/mysql/error.log" >&2
      exit 1
    fi
  fi
  $SUDO mariadb --protocol=socket -uroot <<'SQL'
CREATE DATABASE IF NOT EXISTS sbtest;
CREATE USER IF NOT EXISTS 'sbtest'@'localhost' IDENTIFIED BY 'sbtest';
CREATE USER IF NOT EXISTS 'sbtest'@'127.0.0.1' IDENTIFIED BY 'sbtest';
GRANT ALL PRIVILEGES ON sbtest.* TO 'sbtest'@'localhost';
GRANT ALL PRIVILEGES ON sbtest.* TO 'sbtest'@'127.0.0.1';
FLUSH PRIVILEGES;
SQL
  sock=$(mariadb --protocol=socket -uroot -N -e 'SELECT @@socket')
  port=$(mariadb --protocol=socket -uroot -N -e 'SELECT @@port')
  version=$(mariadb --protocol=socket -uroot -N -e 'SELECT VERSION()')
  echo "MariaDB $version is running."
  echo "  socket: dbpress oltp_point_select run --mysql-socket=$sock --mysql-user=sbtest --mysql-password=sbtest"
  echo "  TCP:    dbpress oltp_point_select run --mysql-host=127.0.0.1 --mysql-port=$port --mysql-user=sbtest --mysql-password=sbtest"
  echo "  TLS:    add --mysql-ssl=verify_identity --mysql-ssl-ca=$TLS_DIR/ca.pem to the TCP form"
fi
