-- dbpress's clean-room prelude for sysbench 1.0 Lua scripts: sysbench.sql
-- (see base.lua for how the parts fit).

local dbp = ...
local ffi, C, ctx = dbp.ffi, dbp.C, dbp.ctx

-- sysbench.sql: drivers, connections, statements, parameters.
local err, info, unsupported = dbp.err, dbp.info, dbp.unsupported
local r_str = C.rand_str
local sql_type = {
  NONE = 0, TINYINT = 1, SMALLINT = 2, INT = 3, BIGINT = 4, FLOAT = 5, DOUBLE = 6,
  TIME = 7, DATE = 8, DATETIME = 9, TIMESTAMP = 10, CHAR = 11, VARCHAR = 12,
}
local BIND_INT, BIND_DOUBLE, BIND_STR = 1, 2, 3

-- Errors as sysbench raises them: a failed call left its error in `err`, classified by dbpress
-- (IGNORABLE: the run's --mysql-ignore-errors/--pgsql-ignore-errors; FATAL: any other server
-- error). A restart raises the errdesc table (a script's pcall catches it as a table); a fatal
-- one the hook `sql_error_ignorable` may turn into a restart; otherwise the message, at
-- `level` (the script's line, past the method). An error that is not the server's (no class)
-- is raised as its message.
local IGNORABLE, FATAL = 1, 2
local RESTART_EVENT = sysbench.error.RESTART_EVENT
local last_sql_msg = nil
local function raise_sql(con, query, level)
  local msg = ffi.string(err.msg, err.len)
  local class = err.class
  if class ~= IGNORABLE and class ~= FATAL then
    -- Not the server's (no session here, a call dbpress lacks): the script's own error,
    -- never retried.
    last_sql_msg = nil
    error(msg, level + 1)
  end
  local errdesc = {
    connection = con, query = query, sql_errno = err.sql_errno,
    sql_state = ffi.string(err.sql_state), sql_errmsg = msg,
  }
  local restart = class == IGNORABLE
  if not restart then
    local hook = sysbench.hooks.sql_error_ignorable
    restart = hook ~= nil and hook(errdesc)
  end
  if restart then
    errdesc.errcode = RESTART_EVENT
    error(errdesc, level + 1)
  end
  last_sql_msg = string.format("SQL error, errno = %d, state = '%s': %s", errdesc.sql_errno,
    errdesc.sql_state, msg)
  error(last_sql_msg, level + 1)
end

-- Every call from dbpress into the script (`event`, `thread_run`, thread_init, …) goes
-- through `enter`, off the hot path (once per `thread_run`, or per event under --rate): it
-- tells dbpress what left the script (a restart, the SQL error it kept, or the script's own),
-- and before an event is retried (`resume`) runs `sysbench.hooks.before_restart_event` with the
-- errdesc that restarted it, as sysbench's loop does.
local pending = nil
-- sysbench calls the main state's functions (init, done, prepare, cleanup, help) with no
-- argument, and a worker's (thread_init, thread_run, event, thread_done) with its thread id.
local MAIN_ONLY = { "init", "done", "prepare", "cleanup", "help" }
local function main_only(f)
  if f == thread_init or f == thread_run or f == event or f == thread_done then return false end
  for i = 1, #MAIN_ONLY do
    if f == rawget(_G, MAIN_ONLY[i]) then return true end
  end
  return false
end
function dbp.enter(f, tid, resume)
  if not resume and main_only(f) then tid = nil end
  if resume and pending ~= nil then
    local errdesc = pending
    pending = nil
    local hook = sysbench.hooks.before_restart_event
    if hook ~= nil then hook(errdesc) end
  end
  local ok, r = pcall(f, tid)
  if ok then return r end
  err.restart, err.sql = 0, 0
  if type(r) == "table" and r.errcode == RESTART_EVENT then
    pending = r
    err.restart, err.sql = 1, 1
    error(string.format("SQL error, errno = %s, state = '%s': %s", tostring(r.sql_errno),
      tostring(r.sql_state), tostring(r.sql_errmsg)), 0)
  end
  pending = nil
  -- The SQL error itself is `where: ` and its message (not a script's message quoting it).
  if type(r) == "string" and last_sql_msg ~= nil and r:sub(-#last_sql_msg) == last_sql_msg then
    local head = r:sub(1, #r - #last_sql_msg)
    if head == "" or head:find(": ", 1, true) == #head - 1 then err.sql = 1 end
  end
  error(r, 0)
end

-- Parameters are cdata (`dbp_bind`, its string buffer inside it) with methods by metatype, so
-- the trace compiler resolves `param:set` to a store with no table lookups.
local param = {}
function param.set(b, v)
  if v == nil then
    b.is_null = 1
    return
  end
  local t = b.type
  if t == BIND_INT then
    b.i = v
  elseif t == BIND_DOUBLE then
    b.d = v
  else
    v = tostring(v)
    local n = #v
    if n > b.max_len then n = b.max_len end
    ffi.copy(b.buf, v, n)
    b.len = n
  end
  b.is_null = 0
end
function param.set_rand_str(b, fmt)
  if b.type ~= BIND_STR then
    error("set_rand_str() needs a CHAR or VARCHAR parameter", 2)
  end
  local n = #fmt
  if n > b.max_len then n = b.max_len end
  r_str(ctx, fmt, n, b.buf)
  b.len = n
  b.is_null = 0
end
ffi.metatype("dbp_bind", {
  __index = setmetatable(param, unsupported("sql_param")),
  __tostring = function() return "<sql_param>" end,
})

-- Statements are the `dbp_stmt *` dbpress returned, with methods by metatype too; what they
-- must keep alive (bound parameters and the array of them) is kept here, per statement.
local bound = {}
local statement = {}

function statement.bind_create(st, t, max_len)
  local b
  if t == sql_type.TINYINT or t == sql_type.SMALLINT or t == sql_type.INT or t == sql_type.BIGINT then
    b = ffi.new("dbp_bind", 0)
    b.type = BIND_INT
  elseif t == sql_type.FLOAT or t == sql_type.DOUBLE then
    b = ffi.new("dbp_bind", 0)
    b.type = BIND_DOUBLE
  elseif t == sql_type.CHAR or t == sql_type.VARCHAR then
    max_len = max_len or 255
    b = ffi.new("dbp_bind", max_len)
    b.type = BIND_STR
    b.str = b.buf
    b.max_len = max_len
  else
    error("Unsupported argument type: " .. tostring(t), 2)
  end
  b.is_null = 1
  return b
end

function statement.bind_param(st, ...)
  local n = select("#", ...)
  local arr = ffi.new("dbp_bind *[?]", n > 0 and n or 1)
  local keep = { arr }
  for i = 1, n do
    local p = select(i, ...)
    arr[i - 1] = p
    keep[i + 1] = p
  end
  bound[tostring(ffi.cast("uintptr_t", st))] = keep
  if C.bind(ctx, st, arr, n) ~= 0 then raise_sql(nil, "<prepared statement>", 2) end
  -- One value, nil, as sysbench's (`print(stmt:bind_param())` prints "nil").
  return nil
end

-- Results: the state's current query result and the result an execute of a SELECT returns
-- (rows not fetchable, as in sysbench 1.0), both at fixed addresses; a statement without a
-- result set returns a NULL `dbp_result *` (`== nil` is true, as sysbench's).
local query_res, exec_res = C.result(ctx, 0), C.result(ctx, 1)
local no_res = ffi.cast("dbp_result *", nil)
local RESULT = 2

local c_execute = C.execute
function statement.execute(st)
  local r = c_execute(ctx, st)
  if r == 0 then return no_res end
  if r == RESULT then return exec_res end
  raise_sql(nil, "<prepared statement>", 2)
end

function statement.close(st) end

ffi.metatype("struct dbp_stmt", {
  __index = setmetatable(statement, unsupported("sql_statement")),
  __tostring = function() return "<sql_statement>" end,
})

local connection = setmetatable({}, unsupported("sql_connection"))
connection.__index = connection
connection.__tostring = function() return "<sql_connection>" end

local c_query = C.query
-- `level` as raise_sql's: 1 is the function calling this one. `failed` is cleared first for
-- check_error.
local function do_query(con, q, level)
  err.failed = 0
  local r = c_query(ctx, q, #q)
  if r == 0 then return no_res end
  if r == RESULT then return query_res end
  raise_sql(con, q, level + 1)
end

function connection:query(q)
  local rs = do_query(self, q, 2)
  return rs
end

function connection:query_row(q)
  local rs = do_query(self, q, 2)
  -- A statement without rows gives one nil, as sysbench's.
  if rs == nil then return nil end
  local row = rs:fetch_row()
  if row == nil then return nil end
  return unpack(row, 1, rs.nfields)
end

-- sysbench's check: `rs` when the call succeeded, else the error raised as the call raises it.
function connection:check_error(rs, q)
  if rs ~= nil or err.failed == 0 then return rs end
  raise_sql(self, q, 2)
end

-- A statement the server refuses to prepare is sysbench's `SQL API error` (its driver keeps no
-- errno for it), not an errdesc: never a restart. The server's error stays dbpress's, for
-- the one line an uncaught one ends in; `always`: whatever the error, the client's too, but
-- for dbpress's own limit (no session lent where the call is made, host.rs), which says what
-- it is (else one that is not the server's is raised as its message).
local NO_SESSION = "no database session here"
local function api_error(what, level, always)
  local class = err.class
  if always then
    always = ffi.string(err.msg, math.min(err.len, #NO_SESSION)) ~= NO_SESSION
  end
  if not always and class ~= IGNORABLE and class ~= FATAL then
    last_sql_msg = nil
    error(ffi.string(err.msg, err.len), level + 1)
  end
  last_sql_msg = what
  error(what, level + 1)
end

-- The cause behind `SQL API error` or `connection creation failed`, for 0.5's names, which say
-- it (`db_prepare() failed: SQL error, …`): the server's error as raise_sql words it (`plain`:
-- its message alone), kept as the SQL error's message.
function dbp.sql_cause(plain)
  local msg = ffi.string(err.msg, err.len)
  if not plain then
    msg = string.format("SQL error, errno = %d, state = '%s': %s", err.sql_errno,
      ffi.string(err.sql_state), msg)
  end
  last_sql_msg = msg
  return msg
end

function connection:prepare(q)
  local st = C.prepare(ctx, q, #q)
  if st == nil then api_error("SQL API error", 2) end
  return st
end

function connection:reconnect()
  if C.reconnect(ctx) ~= 0 then raise_sql(self, nil, 2) end
end

function connection:disconnect() end

-- Bulk inserts: `prefix row,row,…` sent as one query (a write) whenever the next row would
-- take it past sysbench's 512 KiB, and at `bulk_insert_done`. Each call returns what
-- sysbench's does (true and its message).
local BULK_MAX = 512 * 1024
local function bulk_flush(con, level)
  local b = rawget(con, "bulk")
  if b.rows > 0 then
    local q = table.concat(b, "", 1, b.n)
    b.n, b.rows, b.len = 1, 0, #b[1]
    do_query(con, q, level + 1)
  end
end
function connection:bulk_insert_init(prefix)
  rawset(self, "bulk", { prefix, n = 1, rows = 0, len = #prefix })
  return true, "db_bulk_insert_init() failed"
end
function connection:bulk_insert_next(row)
  local b = rawget(self, "bulk")
  if b == nil then error("db_bulk_insert_next() failed", 2) end
  if b.rows > 0 and b.len + 1 + #row > BULK_MAX then bulk_flush(self, 2) end
  if b.rows > 0 then
    b[b.n + 1] = ","
    b.n = b.n + 1
    b.len = b.len + 1
  end
  b[b.n + 1] = row
  b.n, b.rows, b.len = b.n + 1, b.rows + 1, b.len + #row
  return true, "db_bulk_insert_next() failed"
end
function connection:bulk_insert_done()
  if rawget(self, "bulk") ~= nil then
    bulk_flush(self, 2)
    rawset(self, "bulk", nil)
  end
  return true, "db_bulk_insert_done() failed"
end

-- A result's methods (`dbp_result` by metatype): rows as 1-based tables of strings, nil for
-- SQL NULL, nil after the last one.
local result = {}
local c_fetch = C.fetch_row
-- A NULL result (a statement without rows) is checked first: its fields are not there to read.
function result.fetch_row(rs)
  if rs == nil or rs.kind ~= 1 then return nil end
  local v = c_fetch(ctx)
  if v == nil then return nil end
  local row = {}
  for i = 0, rs.nfields - 1 do
    if v[i].null == 0 then row[i + 1] = ffi.string(v[i].ptr, v[i].len) end
  end
  return row
end
function result.free(rs)
  if rs == nil or rs.live == 0 then error("db_free_results() failed", 2) end
  rs.live = 0
  return true, "db_free_results() failed"
end
ffi.metatype("dbp_result", {
  __index = setmetatable(result, unsupported("sql_result")),
  __tostring = function() return "<sql_result>" end,
})

local driver = setmetatable({}, unsupported("sql_driver"))
driver.__index = driver
driver.__tostring = function() return "<sql_driver>" end

-- A session that cannot be opened is sysbench's `connection creation failed` (the cause is
-- dbpress's, in the one line an uncaught one ends in).
function driver:connect()
  if C.connect(ctx) ~= 0 then api_error("connection creation failed", 2, true) end
  return setmetatable({}, connection)
end

function driver:name()
  return info.driver
end

sysbench.sql = setmetatable({
  type = sql_type,
  error = { NONE = 0, IGNORABLE = 1, FATAL = 2 },
  driver = function(name)
    if name ~= nil and name ~= info.driver then
      -- A driver sysbench does not have: its message. One it has: dbpress runs a script on
      -- the one driver of its command line.
      if name ~= "mysql" and name ~= "pgsql" then
        error("failed to initialize the DB driver", 2)
      end
      error(string.format("failed to initialize the DB driver: dbpress runs this script on '%s', not '%s'",
        info.driver, tostring(name)), 2)
    end
    C.driver_asked(ctx)
    return setmetatable({}, driver)
  end,
}, unsupported("sysbench.sql"))

