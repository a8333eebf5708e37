-- dbpress's clean-room prelude for sysbench 1.0 Lua scripts (MIT OR Apache-2.0, like dbpress):
-- the FFI declarations, the entry points and the `sysbench` table; the other parts (rand, sql,
-- loop, compat, modules) run after it, in that order, each given what this part returns.
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
  int32_t class;
  int32_t restart;
  int32_t sql;
} dbp_err;
typedef struct dbp_result {
  uint32_t nrows;
  uint32_t nfields;
  uint32_t next;
  int32_t live;
  int32_t kind;
} dbp_result;
typedef struct {
  const char *ptr;
  uint32_t len;
  int32_t null;
} dbp_value;
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
  driver_asked = "void (*)(dbp_ctx *)",
  connect = "int32_t (*)(dbp_ctx *)",
  prepare = "dbp_stmt *(*)(dbp_ctx *, const char *, uint32_t)",
  bind = "int32_t (*)(dbp_ctx *, dbp_stmt *, dbp_bind **, uint32_t)",
  execute = "int32_t (*)(dbp_ctx *, dbp_stmt *)",
  query = "int32_t (*)(dbp_ctx *, const char *, uint32_t)",
  result = "dbp_result *(*)(dbp_ctx *, uint32_t)",
  fetch_row = "const dbp_value *(*)(dbp_ctx *)",
  reconnect = "int32_t (*)(dbp_ctx *)",
  err = "dbp_err *(*)(dbp_ctx *)",
  next_event = "int32_t (*)(dbp_ctx *)",
  event_done = "void (*)(dbp_ctx *)",
  event_step = "int32_t (*)(dbp_ctx *)",
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
  version_string = "sysbench 1.0.20",
  tid = info.tid,
  error = { NONE = 0, RESTART_EVENT = 1 },
  hooks = {},
  opt = opts,
  -- Its functions and what reads as nil are cmdline.lua's.
  cmdline = {
    command = info.command,
    script_path = info.script_path,
    argv = info.argv or {},
    ARG_NULL = 0, ARG_BOOL = 1, ARG_INT = 2, ARG_SIZE = 3, ARG_DOUBLE = 4,
    ARG_STRING = 5, ARG_LIST = 6, ARG_FILE = 7, ARG_MAX = 8,
    PARALLEL_COMMAND = true,
  },
}


return {
  ffi = ffi, C = C, ctx = ctx, err = err, unsupported = unsupported, info = info, opts = opts,
  addrs = fn_addrs,
}
