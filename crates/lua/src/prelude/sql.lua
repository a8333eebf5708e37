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

