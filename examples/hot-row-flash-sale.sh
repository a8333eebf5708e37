#!/usr/bin/env bash
# The "flash sale" hot row: many sessions decrementing one counter row, at rising concurrency,
# to see where lock waits and deadlock detection collapse throughput. Repeat after changing
# innodb_deadlock_detect or innodb_lock_wait_timeout and compare the tables.
#
# Same command line as mysqlslap's; dbpress adds per-statement latency percentiles, errors by
# code, a table over the levels, and drops only the table its --create made.
set -euo pipefail
CONN=(-usbtest -psbtest -S /run/mysqld/mysqld.sock --create-schema=sbtest)
dbpress slap "${CONN[@]}" \
  --create="create table seckill(id int primary key, num int) engine=innodb; insert into seckill values (1, 100000000)" \
  --query='begin;update seckill set num=num-1 where id=1 and num>1;commit;' \
  --concurrency=72,96,144,192,256 --number-of-queries=500000 \
  --output=hot-row.json
