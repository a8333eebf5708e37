-- dbpress's clean-room prelude for sysbench 1.0 Lua scripts: the 0.5 names
-- (see base.lua for how the parts fit).

local dbp = ...
local ffi, C, ctx = dbp.ffi, dbp.C, dbp.ctx

-- 0.5 names oltp_common.lua's prepare uses.
local r_default, r_uniform = C.rand_default, C.rand_uniform
function sb_rand(a, b) return r_default(ctx, a, b) end
function sb_rand_uniform(a, b) return r_uniform(ctx, a, b) end
function sb_rand_str(fmt) return sysbench.rand.string(fmt) end

