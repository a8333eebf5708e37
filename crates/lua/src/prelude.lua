-- dbpress's clean-room prelude for sysbench 1.0 Lua scripts (MIT OR Apache-2.0, like dbpress).
-- Written from the API as scripts observe it (names, types, messages), not from sysbench's
-- sources. It runs once per state before the script. Everything on the hot path (random
-- numbers, parameter stores, execute/query) is LuaJIT FFI: parameter buffers are cdata that
-- `param:set` writes in place, and execute/query are one call through a function pointer into
-- dbpress, which the trace compiler inlines. Rust hands in the addresses (`...` below).

local ctx_addr, fn_addrs, opts, info = ...

ffi = require("ffi")
local ffi = ffi

ffi.cdef [[
typedef struct dbp_ctx dbp_ctx;
typedef struct {
  int64_t i;
  double d;
  char *str;
  uint32_t len;
  uint32_t max_len;
  int32_t type;
  int32_t is_null;
  char buf[?];
} dbp_bind;
typedef struct dbp_stmt dbp_stmt;
typedef struct {
  int32_t failed;
  int32_t sql_errno;
  char sql_state[8];
  uint32_t len;
  char msg[500];
} dbp_err;
]]

local C = {}
for name, sig in pairs({
  rand_uniform = "uint32_t (*)(dbp_ctx *, uint32_t, uint32_t)",
  rand_default = "uint32_t (*)(dbp_ctx *, uint32_t, uint32_t)",
  rand_gaussian = "uint32_t (*)(dbp_ctx *, uint32_t, uint32_t)",
  rand_special = "uint32_t (*)(dbp_ctx *, uint32_t, uint32_t)",
  rand_pareto = "uint32_t (*)(dbp_ctx *, uint32_t, uint32_t)",
  rand_uint64 = "uint64_t (*)(dbp_ctx *)",
  rand_double = "double (*)(dbp_ctx *)",
  rand_str = "void (*)(dbp_ctx *, const char *, uint32_t, char *)",
  connect = "int32_t (*)(dbp_ctx *)",
  prepare = "dbp_stmt *(*)(dbp_ctx *, const char *, uint32_t)",
  bind = "int32_t (*)(dbp_ctx *, dbp_stmt *, dbp_bind **, uint32_t)",
  execute = "int32_t (*)(dbp_ctx *, dbp_stmt *)",
  query = "int32_t (*)(dbp_ctx *, const char *, uint32_t)",
  err = "dbp_err *(*)(dbp_ctx *)",
  next_event = "int32_t (*)(dbp_ctx *)",
  event_done = "void (*)(dbp_ctx *)",
}) do
  C[name] = ffi.cast(sig, fn_addrs[name])
end
local ctx = ffi.cast("dbp_ctx *", ctx_addr)
local err = C.err(ctx)

-- What dbpress does not provide yet raises one line naming it.
local function unsupported(where)
  return {
    __index = function(_, k)
      error(string.format("%s.%s is not supported by dbpress yet (#41)", where, tostring(k)), 2)
    end,
  }
end

sysbench = {
  version = "1.0.20",
  version_string = "sysbench 1.0.20 (dbpress)",
  tid = info.tid,
  error = { NONE = 0, RESTART_EVENT = 1 },
  hooks = {},
  opt = opts,
  cmdline = setmetatable({
    command = info.command,
    script_path = info.script_path,
    argv = {},
    ARG_NULL = 0, ARG_BOOL = 1, ARG_INT = 2, ARG_SIZE = 3, ARG_DOUBLE = 4,
    ARG_STRING = 5, ARG_LIST = 6, ARG_FILE = 7, ARG_MAX = 8,
    PARALLEL_COMMAND = true,
  }, unsupported("sysbench.cmdline")),
}

-- sysbench.rand: the algorithms are dbpress's (crates/core/src/rand.rs), per state.
local r_uniform, r_default = C.rand_uniform, C.rand_default
local r_gaussian, r_special, r_pareto = C.rand_gaussian, C.rand_special, C.rand_pareto
local r_str, r_double, r_u64 = C.rand_str, C.rand_double, C.rand_uint64
local strbuf, strbuf_len = nil, 0
sysbench.rand = setmetatable({
  uniform = function(a, b) return r_uniform(ctx, a, b) end,
  default = function(a, b) return r_default(ctx, a, b) end,
  gaussian = function(a, b) return r_gaussian(ctx, a, b) end,
  special = function(a, b) return r_special(ctx, a, b) end,
  pareto = function(a, b) return r_pareto(ctx, a, b) end,
  uniform_double = function() return r_double(ctx) end,
  uniform_uint64 = function() return r_u64(ctx) end,
  string = function(fmt)
    local n = #fmt
    if n > strbuf_len then
      strbuf, strbuf_len = ffi.new("char[?]", n), n
    end
    r_str(ctx, fmt, n, strbuf)
    return ffi.string(strbuf, n)
  end,
}, unsupported("sysbench.rand"))

-- sysbench.sql: drivers, connections, statements, parameters.
local sql_type = {
  NONE = 0, TINYINT = 1, SMALLINT = 2, INT = 3, BIGINT = 4, FLOAT = 5, DOUBLE = 6,
  TIME = 7, DATE = 8, DATETIME = 9, TIMESTAMP = 10, CHAR = 11, VARCHAR = 12,
}
local BIND_INT, BIND_DOUBLE, BIND_STR = 1, 2, 3

-- A failed call left its error in `err`: raise it where the script called (level 3: the
-- script's line, past the method).
local function raise_sql()
  local msg = ffi.string(err.msg, err.len)
  if err.sql_errno ~= 0 then
    error(string.format("SQL error, errno = %d, state = '%s': %s", err.sql_errno,
      ffi.string(err.sql_state), msg), 3)
  end
  error(msg, 3)
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
  if C.bind(ctx, st, arr, n) ~= 0 then raise_sql() end
end

local c_execute = C.execute
function statement.execute(st)
  if c_execute(ctx, st) ~= 0 then raise_sql() end
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
function connection:query(q)
  if c_query(ctx, q, #q) ~= 0 then raise_sql() end
end

function connection:prepare(q)
  local st = C.prepare(ctx, q, #q)
  if st == nil then raise_sql() end
  return st
end

function connection:disconnect() end

local driver = setmetatable({}, unsupported("sql_driver"))
driver.__index = driver
driver.__tostring = function() return "<sql_driver>" end

function driver:connect()
  if C.connect(ctx) ~= 0 then raise_sql() end
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
      error(string.format("failed to initialize the DB driver: dbpress runs this script on '%s', not '%s'",
        info.driver, tostring(name)), 2)
    end
    return setmetatable({}, driver)
  end,
}, unsupported("sysbench.sql"))

-- The worker's loop, as sysbench's scripts inherit it (a script may define its own): in Lua, so
-- LuaJIT compiles the loop and the event into one trace. The runner claims, starts and records
-- each event (`next_event`, `event_done`). An error ends the loop; the runner retries the event
-- (calling thread_run again, whose first `next_event` resumes it) or ends the run. A true
-- return from event() stops this thread without counting the event, as in sysbench.
local c_next, c_done = C.next_event, C.event_done
function thread_run(tid)
  local event = event
  while c_next(ctx) ~= 0 do
    if event(tid) then
      return
    end
    c_done(ctx)
  end
end

-- 0.5 names oltp_common.lua's prepare uses.
function sb_rand(a, b) return r_default(ctx, a, b) end
function sb_rand_uniform(a, b) return r_uniform(ctx, a, b) end
function sb_rand_str(fmt) return sysbench.rand.string(fmt) end

-- Modules: the script's own folder first, then sysbench's usual places (§6.5).
if info.script_dir ~= nil then
  package.path = info.script_dir .. "/?.lua;" .. package.path
end
package.path = package.path .. ";/usr/local/share/sysbench/?.lua;/usr/share/sysbench/?.lua"

setmetatable(sysbench, unsupported("sysbench"))
