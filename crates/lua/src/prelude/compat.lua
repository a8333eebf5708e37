-- dbpress's clean-room prelude for sysbench 1.0 Lua scripts: the 0.5 names, as sysbench 1.0
-- still offers them to 0.5 scripts (see base.lua for how the parts fit): globals, `sb_rand*`
-- and `db_*` on one implicit connection per state, built on sysbench.sql's objects.

local dbp = ...
local ffi, C, ctx = dbp.ffi, dbp.C, dbp.ctx

thread_id = sysbench.tid
test = dbp.info.script_path
mysql_table_engine = mysql_table_engine or "innodb"
myisam_max_rows = 1000000
DB_ERROR_NONE, DB_ERROR_RESTART_TRANSACTION, DB_ERROR_FAILED = 0, 1, 2

-- Random numbers. 0.5 scripts pass options as the strings legacy mode exports (sysbench #183):
-- numeric strings are taken as numbers here.
local r_default, r_uniform = C.rand_default, C.rand_uniform
local r_gaussian, r_special, r_u64 = C.rand_gaussian, C.rand_special, C.rand_uint64
-- What is not a number stays as it is, for the FFI's own error (`cannot convert 'string'`).
local tonumber = tonumber
local function num(v) return tonumber(v) or v end
function sb_rand(a, b) return r_default(ctx, num(a), num(b)) end
function sb_rand_uniform(a, b) return r_uniform(ctx, num(a), num(b)) end
function sb_rand_gaussian(a, b) return r_gaussian(ctx, num(a), num(b)) end
function sb_rand_special(a, b) return r_special(ctx, num(a), num(b)) end
function sb_rand_str(fmt) return sysbench.rand.string(fmt) end
-- The low 32 bits of a 64-bit draw, as a Lua number.
function sb_rnd() return num(r_u64(ctx) % 0x100000000ULL) end
-- The next unique value within [a, b] (whole 32-bit range by default): drawn until one falls
-- in it, as in sysbench, so a narrow range takes long and its values may repeat.
function sb_rand_uniq(a, b)
  a, b = num(a) or 0, num(b) or 4294967295
  local unique = sysbench.rand.unique
  local v = unique()
  while v < a or v > b do v = unique() end
  return v
end

-- A failed call raises at the script's line: `name() failed:` and the cause (an errdesc table
-- that restarts the event passes unchanged).
-- sysbench.sql's `SQL API error` and `connection creation failed` name no cause: here the
-- server's.
local causes = { ["SQL API error"] = false, ["connection creation failed"] = true }
local function call(name, f, ...)
  local ok, r = pcall(f, ...)
  if ok then return r end
  if type(r) ~= "string" then error(r, 0) end
  r = r:gsub("^[^\n]-:%d+: ", "")
  if causes[r] ~= nil then r = dbp.sql_cause(causes[r]) end
  error(name .. "() failed: " .. r, 3)
end

-- The implicit connection, made on first use.
local con
local function connection()
  if con == nil then
    local drv = sysbench.sql.driver()
    con = call("db_connect", drv.connect, drv)
    db_driver = drv:name()
  end
  return con
end
function db_connect() connection() end
function db_disconnect()
  if con ~= nil then con:disconnect() end
  con = nil
end
function db_query(sql)
  local c = con or connection()
  call("db_query", c.query, c, sql)
end

-- Bulk insert: rows joined after the prefix, sent as one statement whenever they reach
-- sysbench's 512 KiB.
local BULK_MAX = 512 * 1024
local bulk_prefix, bulk_rows, bulk_size = nil, {}, 0
local function bulk_flush()
  if #bulk_rows > 0 then
    db_query(bulk_prefix .. " " .. table.concat(bulk_rows, ","))
    bulk_rows, bulk_size = {}, 0
  end
end
function db_bulk_insert_init(prefix)
  bulk_prefix, bulk_rows, bulk_size = prefix, {}, #prefix
end
function db_bulk_insert_next(row)
  if bulk_prefix == nil then
    error("db_bulk_insert_next() failed: call db_bulk_insert_init(prefix) first", 2)
  end
  if bulk_size + #row + 1 > BULK_MAX then bulk_flush() end
  bulk_rows[#bulk_rows + 1] = row
  bulk_size = bulk_size + #row + 1
end
function db_bulk_insert_done()
  if bulk_prefix ~= nil then bulk_flush() end
  bulk_prefix = nil
end

-- Prepared statements: `db_bind_param(stmt, t)` binds the table itself, and every
-- `db_execute` reads it again (numbers as integers, strings as VARCHARs rebound when they grow).
-- Statements and results are userdata, as sysbench's (`type(stmt) == "userdata"`, printed as
-- `userdata: 0x…`): proxies sharing one metatable per kind, each statement's state kept
-- beside it.
local stmt_proto, rs_proto = newproxy(true), newproxy(true)
local stmt_mt, rs_mt = getmetatable(stmt_proto), getmetatable(rs_proto)
local stmt_state = setmetatable({}, { __mode = "k" })
local sql_type = sysbench.sql.type

function db_prepare(sql)
  local c = connection()
  local st = call("db_prepare", c.prepare, c, sql)
  local p = newproxy(stmt_proto)
  stmt_state[p] = { st = st, kinds = {}, lens = {}, params = {} }
  return p
end

-- The state of statement `s`, or the error sysbench raises for what is not one.
local function checked(name, s, t)
  local state = type(s) == "userdata" and getmetatable(s) == stmt_mt and stmt_state[s]
  if not state then
    error(string.format("bad argument #1 to '%s' (sysbench.stmt expected, got %s)", name, type(s)), 3)
  end
  if t ~= nil and type(t) ~= "table" then error("table was expected", 3) end
  if t ~= nil and #t == 0 then error("table is empty", 3) end
  return state
end

-- (Re)bind `s`'s parameters to what `t` holds now, when a type or a longer string asks.
local function rebind(s, t)
  local changed = #t ~= #s.params
  for i = 1, #t do
    local v, k = t[i], s.kinds[i]
    local vt = type(v)
    if vt == "number" then
      if k ~= "number" then
        s.params[i], s.kinds[i], changed = s.st:bind_create(sql_type.BIGINT), "number", true
      end
    elseif vt == "string" then
      if k ~= "string" or #v > s.lens[i] then
        local len = math.max(#v, 1)
        s.params[i], s.kinds[i], s.lens[i], changed = s.st:bind_create(sql_type.VARCHAR, len), "string", len, true
      end
    elseif v == nil then
      -- NULL: any parameter will do; a first one is made an integer.
      if k == nil then
        s.params[i], s.kinds[i], changed = s.st:bind_create(sql_type.BIGINT), "number", true
      end
    else
      error("Unsupported variable type: " .. vt, 3)
    end
  end
  if changed then s.st:bind_param(unpack(s.params, 1, #t)) end
end

function db_bind_param(p, t)
  local s = checked("db_bind_param", p, t)
  s.values = t
  rebind(s, t)
end

function db_bind_result(s, t) checked("db_bind_result", s, t) end

function db_execute(p)
  local s = checked("db_execute", p)
  local t = s.values
  if t ~= nil then
    rebind(s, t)
    for i = 1, #t do s.params[i]:set(t[i]) end
  end
  call("db_execute", s.st.execute, s.st)
  return newproxy(rs_proto)
end

function db_store_results(rs) end

function db_free_results(rs)
  if type(rs) ~= "userdata" or getmetatable(rs) ~= rs_mt then
    error(string.format("bad argument #1 to 'db_free_results' (sysbench.rs expected, got %s)", type(rs)), 2)
  end
end

function db_close(p)
  checked("db_close", p).st:close()
end
