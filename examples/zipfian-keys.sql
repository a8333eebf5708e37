-- A pgbench-style script with zipfian keys: a few accounts take most of the traffic (the hot
-- products of a shop). Run it against pgbench's tables on any engine:
--   dbpress script prepare -s 10 --pgsql-host=/var/run/postgresql --pgsql-password=sbtest
--   dbpress script run -f examples/zipfian-keys.sql -D theta=1.2 -c 8 -T 60 --pgsql-host=/var/run/postgresql --pgsql-password=sbtest
-- (or with --mysql-socket=... / --db sqlite:bench.db instead of the --pgsql-* options).
\set aid random_zipfian(1, 100000 * :scale, :theta)
\set delta random(-5000, 5000)
BEGIN;
UPDATE pgbench_accounts SET abalance = abalance + :delta WHERE aid = :aid;
SELECT abalance FROM pgbench_accounts WHERE aid = :aid;
END;
