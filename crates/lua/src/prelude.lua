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

local param_int = {}
param_int.__index = param_int
function param_int:set(v)
  local b = self.b
  if v == nil then
    b.is_null = 1
  else
    b.is_null = 0
    b.i = v
  end
end
param_int.__tostring = function() return "<sql_param>" end

local param_double = {}
param_double.__index = param_double
function param_double:set(v)
  local b = self.b
  if v == nil then
    b.is_null = 1
  else
    b.is_null = 0
    b.d = v
  end
end
param_double.__tostring = param_int.__tostring

local param_str = {}
param_str.__index = param_str
function param_str:set(v)
  local b = self.b
  if v == nil then
    b.is_null = 1
    return
  end
  v = tostring(v)
  local n = #v
  if n > b.max_len then n = b.max_len end
  ffi.copy(b.str, v, n)
  b.len = n
  b.is_null = 0
end
function param_str:set_rand_str(fmt)
  local b = self.b
  local n = #fmt
  if n > b.max_len then n = b.max_len end
  r_str(ctx, fmt, n, b.str)
  b.len = n
  b.is_null = 0
end
param_str.__tostring = param_int.__tostring

local statement = setmetatable({}, unsupported("sql_statement"))
statement.__index = statement
statement.__tostring = function() return "<sql_statement>" end

function statement:bind_create(t, max_len)
  local b = ffi.new("dbp_bind")
  b.is_null = 1
  if t == sql_type.TINYINT or t == sql_type.SMALLINT or t == sql_type.INT or t == sql_type.BIGINT then
    b.type = BIND_INT
    return setmetatable({ b = b }, param_int)
  elseif t == sql_type.FLOAT or t == sql_type.DOUBLE then
    b.type = BIND_DOUBLE
    return setmetatable({ b = b }, param_double)
  elseif t == sql_type.CHAR or t == sql_type.VARCHAR then
    max_len = max_len or 255
    local buf = ffi.new("char[?]", max_len)
    b.type = BIND_STR
    b.str = buf
    b.max_len = max_len
    return setmetatable({ b = b, buf = buf }, param_str)
  end
  error("Unsupported argument type: " .. tostring(t), 2)
end

function statement:bind_param(...)
  local n = select("#", ...)
  local arr = ffi.new("dbp_bind *[?]", n > 0 and n or 1)
  local keep = {}
  for i = 1, n do
    local p = select(i, ...)
    arr[i - 1] = p.b
    keep[i] = p
  end
  self.params, self.arr = keep, arr
  if C.bind(ctx, self.h, arr, n) ~= 0 then raise_sql() end
end

local c_execute = C.execute
function statement:execute()
  if c_execute(ctx, self.h) ~= 0 then raise_sql() end
end

function statement:close() end

local connection = setmetatable({}, unsupported("sql_connection"))
connection.__index = connection
connection.__tostring = function() return "<sql_connection>" end

local c_query = C.query
function connection:query(q)
  if c_query(ctx, q, #q) ~= 0 then raise_sql() end
end

function connection:prepare(q)
  local h = C.prepare(ctx, q, #q)
  if h == nil then raise_sql() end
  return setmetatable({ h = h }, statement)
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
