#!/usr/bin/env bash
# Install (apt) and start the database servers dbpress's tests and benchmarks use.
# Idempotent: safe to run again; it only installs what is missing and starts what is stopped.
#
#   scripts/services.sh                  MariaDB and PostgreSQL (the default set)
#   scripts/services.sh mariadb          MariaDB only
#   scripts/services.sh pgsql            PostgreSQL only
#   scripts/services.sh mariadb sysbench also installs sysbench (and pgbench with pgsql), for bench/
#
# Creates the `sbtest` user (password `sbtest`) and database `sbtest`, like sysbench's defaults.
set -euo pipefail

want_mariadb=0
want_pgsql=0
want_sysbench=0
for arg in "$@"; do
  case "$arg" in
    mariadb) want_mariadb=1 ;;
    pgsql|postgresql) want_pgsql=1 ;;
    sysbench) want_sysbench=1 ;;
    *) echo "services.sh: unknown service '$arg' (known: mariadb, pgsql, sysbench)" >&2; exit 2 ;;
  esac
done
if [ "$want_mariadb" = 0 ] && [ "$want_pgsql" = 0 ]; then want_mariadb=1; want_pgsql=1; fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi

missing=()
if [ "$want_mariadb" = 1 ] && ! command -v mariadbd >/dev/null 2>&1 && [ ! -x /usr/sbin/mariadbd ]; then
  missing+=(mariadb-server mariadb-client)
fi
if ! command -v openssl >/dev/null 2>&1; then
  missing+=(openssl)
fi
if [ "$want_pgsql" = 1 ] && ! ls /usr/lib/postgresql/*/bin/postgres >/dev/null 2>&1; then
  missing+=(postgresql postgresql-contrib)
fi
if [ "$want_sysbench" = 1 ] && ! command -v sysbench >/dev/null 2>&1; then
  missing+=(sysbench)
fi
if [ "$want_sysbench" = 1 ] && [ "$want_pgsql" = 1 ] && ! command -v pgbench >/dev/null 2>&1; then
  missing+=(postgresql-contrib)
fi
if [ "${#missing[@]}" -gt 0 ]; then
  echo "services.sh: installing ${missing[*]}"
  $SUDO apt-get update -q
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q "${missing[@]}"
fi

mariadb_up() { mariadb-admin --protocol=socket -uroot ping >/dev/null 2>&1; }

# A test CA, a server certificate for 127.0.0.1/localhost and a client certificate (CN
# sbtest_x509), so TLS modes and certificate logins can be tested:
# --mysql-ssl=required|verify_ca|verify_identity --mysql-ssl-ca=$TLS_DIR/ca.pem, and
# --mysql-ssl-cert=$TLS_DIR/client-cert.pem --mysql-ssl-key=$TLS_DIR/client-key.pem (the
# sbtest_x509 accounts, which REQUIRE X509 on MariaDB and log in by `cert` on PostgreSQL).
# Each file is made once; the client key is readable by all: it only opens the test accounts.
TLS_DIR=/etc/mysql/dbpress-tls
test_ca() {
  $SUDO mkdir -p "$TLS_DIR"
  (
    cd "$TLS_DIR"
    if [ ! -f ca.pem ] || [ ! -f ca-key.pem ]; then
      $SUDO openssl req -x509 -newkey rsa:2048 -nodes -days 3650 -subj "/CN=dbpress test CA" \
        -keyout ca-key.pem -out ca.pem 2>/dev/null
      $SUDO rm -f server-cert.pem client-cert.pem
    fi
    if [ ! -f server-cert.pem ]; then
      $SUDO openssl req -newkey rsa:2048 -nodes -subj "/CN=127.0.0.1" \
        -keyout server-key.pem -out server.csr 2>/dev/null
      printf 'subjectAltName=IP:127.0.0.1,DNS:localhost\nbasicConstraints=CA:FALSE\n' | $SUDO tee ext.cnf >/dev/null
      $SUDO openssl x509 -req -in server.csr -CA ca.pem -CAkey ca-key.pem -CAcreateserial -days 3650 \
        -extfile ext.cnf -out server-cert.pem 2>/dev/null
      $SUDO chmod 600 server-key.pem
    fi
    if [ ! -f client-cert.pem ]; then
      $SUDO openssl req -newkey rsa:2048 -nodes -subj "/CN=sbtest_x509" \
        -keyout client-key.pem -out client.csr 2>/dev/null
      # Extensions make it X.509 v3, which rustls requires of a certificate it presents.
      printf 'basicConstraints=CA:FALSE\nextendedKeyUsage=clientAuth\n' | $SUDO tee client-ext.cnf >/dev/null
      $SUDO openssl x509 -req -in client.csr -CA ca.pem -CAkey ca-key.pem -CAcreateserial -days 3650 \
        -extfile client-ext.cnf -out client-cert.pem 2>/dev/null
      $SUDO chmod 644 client-key.pem client-cert.pem
    fi
    $SUDO chmod 644 ca.pem server-cert.pem
  )
}

tls_config() {
  if id mysql >/dev/null 2>&1; then $SUDO chown mysql:mysql "$TLS_DIR/server-key.pem"; fi
  [ -f /etc/mysql/mariadb.conf.d/90-dbpress-tls.cnf ] && return 0
  printf '[mariadbd]\nssl_cert = %s/server-cert.pem\nssl_key = %s/server-key.pem\nssl_ca = %s/ca.pem\n' \
    "$TLS_DIR" "$TLS_DIR" "$TLS_DIR" | $SUDO tee /etc/mysql/mariadb.conf.d/90-dbpress-tls.cnf >/dev/null
  # A running server must restart to load the certificate.
  if mariadb_up; then $SUDO mariadb-admin --protocol=socket -uroot shutdown; sleep 1; fi
}

if [ "$want_mariadb" = 1 ] || [ "$want_pgsql" = 1 ]; then test_ca; fi

if [ "$want_mariadb" = 1 ]; then
  tls_config
  # A server that was just told to shut down stops answering before its process is gone, and
  # mysqld_safe refuses to start while it is there: wait for it to finish.
  mariadb_exiting() {
    local pid
    pid=$(cat /run/mysqld/mysqld.pid 2>/dev/null) && [ -n "$pid" ] && [ -d "/proc/$pid" ] && ! mariadb_up
  }
  for _ in $(seq 1 60); do mariadb_exiting || break; sleep 1; done
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
-- mysqlslap makes and drops its own schema (`mysqlslap` by default): the drop-in tests run it,
-- and dbpress as mysqlslap, as sbtest, each in a schema of its own (slap_...).
GRANT ALL PRIVILEGES ON `mysqlslap`.* TO 'sbtest'@'localhost';
GRANT ALL PRIVILEGES ON `mysqlslap`.* TO 'sbtest'@'127.0.0.1';
GRANT ALL PRIVILEGES ON `slap\_%`.* TO 'sbtest'@'localhost';
GRANT ALL PRIVILEGES ON `slap\_%`.* TO 'sbtest'@'127.0.0.1';
-- The tests of dbpress as tpcc_start load tpcc-mysql's tables in a database of their own.
GRANT ALL PRIVILEGES ON `tpcc\_%`.* TO 'sbtest'@'localhost';
GRANT ALL PRIVILEGES ON `tpcc\_%`.* TO 'sbtest'@'127.0.0.1';
CREATE USER IF NOT EXISTS 'sbtest_x509'@'localhost' IDENTIFIED BY 'sbtest' REQUIRE X509;
CREATE USER IF NOT EXISTS 'sbtest_x509'@'127.0.0.1' IDENTIFIED BY 'sbtest' REQUIRE X509;
GRANT ALL PRIVILEGES ON sbtest.* TO 'sbtest_x509'@'localhost';
GRANT ALL PRIVILEGES ON sbtest.* TO 'sbtest_x509'@'127.0.0.1';
FLUSH PRIVILEGES;
SQL
  sock=$(mariadb --protocol=socket -uroot -N -e 'SELECT @@socket')
  port=$(mariadb --protocol=socket -uroot -N -e 'SELECT @@port')
  version=$(mariadb --protocol=socket -uroot -N -e 'SELECT VERSION()')
  echo "MariaDB $version is running."
  echo "  socket: dbpress oltp_point_select run --mysql-socket=$sock --mysql-user=sbtest --mysql-password=sbtest"
  echo "  TCP:    dbpress oltp_point_select run --mysql-host=127.0.0.1 --mysql-port=$port --mysql-user=sbtest --mysql-password=sbtest"
  echo "  TLS:    add --mysql-ssl=verify_identity --mysql-ssl-ca=$TLS_DIR/ca.pem to the TCP form"
  echo "  X509:   --mysql-user=sbtest_x509 with --mysql-ssl=required --mysql-ssl-cert=$TLS_DIR/client-cert.pem --mysql-ssl-key=$TLS_DIR/client-key.pem"
fi

# --- PostgreSQL: the Debian cluster, started by hand (no init system), with the sbtest role and
# database, password logins over the socket and TCP, and room for many connections.
as_postgres() {
  if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else sudo -u postgres "$@"; fi
}
if [ "$want_pgsql" = 1 ]; then
  ver=$(ls /usr/lib/postgresql | sort -n | tail -1)
  if ! pg_lsclusters -h | awk '{print $1" "$2}' | grep -qx "$ver main"; then
    $SUDO pg_createcluster "$ver" main >/dev/null
  fi
  conf=/etc/postgresql/$ver/main
  if [ ! -f "$conf/conf.d/90-dbpress.conf" ]; then
    $SUDO mkdir -p "$conf/conf.d"
    printf "max_connections = 1000\nshared_buffers = 256MB\n" | $SUDO tee "$conf/conf.d/90-dbpress.conf" >/dev/null
    # A running cluster restarts to take max_connections.
    if pg_lsclusters -h | grep -q "^$ver main .* online"; then $SUDO pg_ctlcluster "$ver" main restart; fi
  fi
  # Client certificates signed by the test CA are checked (the sbtest_x509 role logs in by
  # `cert` over TLS); PostgreSQL takes the file on a reload.
  if [ ! -f "$conf/conf.d/91-dbpress-tls.conf" ]; then
    printf "ssl = on\nssl_ca_file = '%s/ca.pem'\n" "$TLS_DIR" | $SUDO tee "$conf/conf.d/91-dbpress-tls.conf" >/dev/null
    if pg_lsclusters -h | grep -q "^$ver main .* online"; then $SUDO pg_ctlcluster "$ver" main reload; fi
  fi
  # sbtest logs in with its password over the socket too (the default is peer authentication);
  # sbtest_md5 and sbtest_plain exist so the tests cover the older MD5 and cleartext exchanges.
  for line in 'local all sbtest scram-sha-256' 'local all sbtest_md5 md5' 'local all sbtest_plain password' \
      'hostssl all sbtest_x509 127.0.0.1/32 cert'; do
    if ! $SUDO grep -q "^$line\$" "$conf/pg_hba.conf"; then
      $SUDO sed -i "1i $line" "$conf/pg_hba.conf"
      if pg_lsclusters -h | grep -q "^$ver main .* online"; then $SUDO pg_ctlcluster "$ver" main reload; fi
    fi
  done
  if ! pg_lsclusters -h | grep -q "^$ver main .* online"; then
    echo "services.sh: starting PostgreSQL $ver"
    $SUDO pg_ctlcluster "$ver" main start
  fi
  as_postgres psql -q -v ON_ERROR_STOP=1 <<'SQL'
DO $$ BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'sbtest') THEN
    CREATE ROLE sbtest LOGIN PASSWORD 'sbtest';
  END IF;
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'sbtest_plain') THEN
    CREATE ROLE sbtest_plain LOGIN PASSWORD 'sbtest';
  END IF;
  -- Logs in with the test client certificate (CN sbtest_x509) and acts as sbtest.
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'sbtest_x509') THEN
    CREATE ROLE sbtest_x509 LOGIN IN ROLE sbtest;
  END IF;
END $$;
-- An MD5 exchange needs the password stored as MD5.
SET password_encryption = 'md5';
DO $$ BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'sbtest_md5') THEN
    CREATE ROLE sbtest_md5 LOGIN PASSWORD 'sbtest';
  END IF;
END $$;
SELECT 'CREATE DATABASE sbtest OWNER sbtest' WHERE NOT EXISTS (SELECT 1 FROM pg_database WHERE datname = 'sbtest')
\gexec
SQL
  port=$(as_postgres psql -Atc 'SHOW port')
  echo "PostgreSQL $(as_postgres psql -Atc 'SHOW server_version') is running."
  echo "  socket: dbpress oltp_point_select run --pgsql-host=/var/run/postgresql --pgsql-port=$port --pgsql-user=sbtest --pgsql-password=sbtest"
  echo "  TCP:    dbpress oltp_point_select run --pgsql-host=127.0.0.1 --pgsql-port=$port --pgsql-user=sbtest --pgsql-password=sbtest"
fi
