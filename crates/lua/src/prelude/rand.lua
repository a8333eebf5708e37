-- dbpress's clean-room prelude for sysbench 1.0 Lua scripts: sysbench.rand
-- (see base.lua for how the parts fit).

local dbp = ...
local ffi, C, ctx = dbp.ffi, dbp.C, dbp.ctx

-- sysbench.rand: the algorithms are dbpress's (crates/core/src/rand.rs), per state.
local r_uniform, r_default = C.rand_uniform, C.rand_default
local r_gaussian, r_special, r_pareto = C.rand_gaussian, C.rand_special, C.rand_pareto
local r_str, r_double, r_u64 = C.rand_str, C.rand_double, C.rand_uint64
local r_unique, r_zipfian, r_varstr = C.rand_unique, C.rand_zipfian, C.rand_varstr
local unsupported = dbp.unsupported
-- One buffer for drawn strings, grown as templates ask: never NULL, even for an empty one.
local strbuf_len = 64
local strbuf = ffi.new("char[?]", strbuf_len)
C.rand_zipf_exp(tonumber(dbp.opts.rand_zipfian_exp) or 0.8)
sysbench.rand = setmetatable({
  uniform = function(a, b) return r_uniform(ctx, a, b) end,
  default = function(a, b) return r_default(ctx, a, b) end,
  gaussian = function(a, b) return r_gaussian(ctx, a, b) end,
  special = function(a, b) return r_special(ctx, a, b) end,
  pareto = function(a, b) return r_pareto(ctx, a, b) end,
  uniform_double = function() return r_double(ctx) end,
  uniform_uint64 = function() return r_u64(ctx) end,
  -- Values that never repeat across the run's threads, as sysbench's.
  unique = function() return r_unique(ctx) end,
  -- The 1.1 superset forks use: zipfian at --rand-zipfian-exp, and a string of a length
  -- drawn from [min_len, max_len] of characters '0' to 'z'.
  zipfian = function(a, b) return r_zipfian(ctx, a, b) end,
  varstring = function(min_len, max_len)
    if type(min_len) ~= "number" or type(max_len) ~= "number" or min_len < 0 or min_len > max_len or max_len < 1 then
      error(string.format("sysbench.rand.varstring(min_len, max_len) needs 0 <= min_len <= max_len and max_len >= 1: got (%s, %s)",
        tostring(min_len), tostring(max_len)), 2)
    end
    if max_len > strbuf_len then
      strbuf, strbuf_len = ffi.new("char[?]", max_len), max_len
    end
    return ffi.string(strbuf, r_varstr(ctx, strbuf, min_len, max_len))
  end,
  string = function(fmt)
    local n = #fmt
    if n > strbuf_len then
      strbuf, strbuf_len = ffi.new("char[?]", n), n
    end
    r_str(ctx, fmt, n, strbuf)
    return ffi.string(strbuf, n)
  end,
}, unsupported("sysbench.rand"))

