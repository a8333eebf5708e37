-- dbpress's clean-room prelude for sysbench 1.0 Lua scripts: sysbench's C declarations, which
-- scripts see because `ffi.C` is one namespace per state (see base.lua for how the parts fit),
-- and sysbench.histogram.
--
-- Declared here once, with sysbench's names and values: a script may declare a function again
-- (sysbench-tpcc's `void sb_counter_inc(int, sb_counter_type);` parses only because the type
-- is already known), but not an enum constant (`attempt to redefine 'SB_CNT_OTHER'`, as under
-- sysbench). The functions are dbpress's exported `sb_*` symbols (crates/lua/src/exports.rs).

local dbp = ...
local ffi, C = dbp.ffi, dbp.C

ffi.cdef [[
typedef enum {
  SB_CNT_OTHER, SB_CNT_READ, SB_CNT_WRITE, SB_CNT_TRX, SB_CNT_ERROR, SB_CNT_RECONNECT, SB_CNT_MAX
} sb_counter_type;
typedef enum { DB_ERROR_NONE, DB_ERROR_IGNORABLE, DB_ERROR_FATAL } sql_error_t;
typedef enum {
  SB_ARG_TYPE_NULL, SB_ARG_TYPE_BOOL, SB_ARG_TYPE_INT, SB_ARG_TYPE_SIZE, SB_ARG_TYPE_DOUBLE,
  SB_ARG_TYPE_STRING, SB_ARG_TYPE_LIST, SB_ARG_TYPE_FILE, SB_ARG_TYPE_MAX
} sb_arg_type_t;
typedef enum {
  SQL_TYPE_NONE, SQL_TYPE_TINYINT, SQL_TYPE_SMALLINT, SQL_TYPE_INT, SQL_TYPE_BIGINT,
  SQL_TYPE_FLOAT, SQL_TYPE_DOUBLE, SQL_TYPE_TIME, SQL_TYPE_DATE, SQL_TYPE_DATETIME,
  SQL_TYPE_TIMESTAMP, SQL_TYPE_CHAR, SQL_TYPE_VARCHAR
} sql_bind_type_t;
typedef struct histogram sb_histogram_t;

void sb_event_start(int);
void sb_event_stop(int);
bool sb_more_events(int);
void sb_counter_inc(int, sb_counter_type);
uint64_t sb_counter_val(int, sb_counter_type);

uint64_t sb_rand_uniform_uint64(void);
uint32_t sb_rand_default(uint32_t, uint32_t);
uint32_t sb_rand_uniform(uint32_t, uint32_t);
uint32_t sb_rand_gaussian(uint32_t, uint32_t);
uint32_t sb_rand_special(uint32_t, uint32_t);
uint32_t sb_rand_pareto(uint32_t, uint32_t);
uint32_t sb_rand_zipfian(uint32_t, uint32_t);
uint32_t sb_rand_unique(void);
void sb_rand_str(const char *, char *);
uint32_t sb_rand_varstr(char *, uint32_t, uint32_t);
double sb_rand_uniform_double(void);

sb_histogram_t *sb_histogram_new(size_t, double, double);
void sb_histogram_delete(sb_histogram_t *);
void sb_histogram_update(sb_histogram_t *, double);
void sb_histogram_print(sb_histogram_t *);
]]

-- dbpress's own entry points behind the rand superset and the histogram: cast, like base's,
-- so the prelude needs no exported symbol.
for name, sig in pairs({
  rand_unique = "uint32_t (*)(dbp_ctx *)",
  rand_zipfian = "uint32_t (*)(dbp_ctx *, uint32_t, uint32_t)",
  rand_zipf_exp = "void (*)(double)",
  rand_varstr = "uint32_t (*)(dbp_ctx *, char *, uint32_t, uint32_t)",
  hist_new = "sb_histogram_t *(*)(size_t, double, double)",
  hist_update = "void (*)(sb_histogram_t *, double)",
  hist_text = "const char *(*)(sb_histogram_t *)",
  hist_delete = "void (*)(sb_histogram_t *)",
}) do
  C[name] = ffi.cast(sig, dbp.addrs[name])
end

-- sysbench.histogram: `new(size, min, max)`, then `h:update(v)` and `h:print()`. A histogram
-- is the cdata dbpress returned, freed when collected; its methods by metatype.
local hist_update, hist_text = C.hist_update, C.hist_text
local methods = {
  update = function(h, v)
    if type(v) ~= "number" then
      error(string.format("histogram:update(v) needs a number, not %s", type(v)), 2)
    end
    hist_update(h, v)
  end,
  print = function(h)
    io.write(ffi.string(hist_text(h)))
  end,
}
ffi.metatype("struct histogram", {
  __index = function(_, k)
    local m = methods[k]
    if m == nil then
      error(string.format("'struct histogram' has no member named '%s'", tostring(k)), 2)
    end
    return m
  end,
  __tostring = function() return "<sb_histogram>" end,
})

sysbench.histogram = {
  new = function(size, min, max)
    if type(size) ~= "number" or type(min) ~= "number" or type(max) ~= "number"
      or size < 2 or min <= 0 or max <= 0 then
      error(string.format("sysbench.histogram.new(size, min, max) needs size >= 2 and min, max > 0: got (%s, %s, %s)",
        tostring(size), tostring(min), tostring(max)), 2)
    end
    return ffi.gc(C.hist_new(size, min, max), C.hist_delete)
  end,
}
