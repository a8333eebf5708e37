-- dbpress's clean-room prelude for sysbench 1.0 Lua scripts: where require looks, and the finished sysbench table
-- (see base.lua for how the parts fit).

local dbp = ...
local info, unsupported = dbp.info, dbp.unsupported

-- Modules: the script's own folder first, then sysbench's usual places (§6.5).
if info.script_dir ~= nil then
  package.path = info.script_dir .. "/?.lua;" .. package.path
end
package.path = package.path .. ";/usr/local/share/sysbench/?.lua;/usr/share/sysbench/?.lua"

setmetatable(sysbench, unsupported("sysbench"))
