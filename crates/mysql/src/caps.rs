//! The capability flags a MySQL client and server trade in the handshake (the ones dbpress's
//! client reads or asks for).

pub const CLIENT_LONG_PASSWORD: u32 = 1;
pub const CLIENT_LONG_FLAG: u32 = 4;
pub const CLIENT_CONNECT_WITH_DB: u32 = 8;
pub const CLIENT_COMPRESS: u32 = 32;
pub const CLIENT_PROTOCOL_41: u32 = 512;
pub const CLIENT_SSL: u32 = 2048;
pub const CLIENT_TRANSACTIONS: u32 = 8192;
pub const CLIENT_SECURE_CONNECTION: u32 = 32768;
pub const CLIENT_MULTI_RESULTS: u32 = 1 << 17;
pub const CLIENT_PS_MULTI_RESULTS: u32 = 1 << 18;
pub const CLIENT_PLUGIN_AUTH: u32 = 1 << 19;
pub const CLIENT_PLUGIN_AUTH_LENENC: u32 = 1 << 21;
pub const CLIENT_DEPRECATE_EOF: u32 = 1 << 24;
/// MariaDB's extended capability (bit 36, i.e. bit 4 of the third capability word): the server
/// sends a prepared statement's result metadata only when it changed since the last execute, as
/// libmariadb (and so sysbench on MariaDB) asks. Without it the server formats and sends one
/// column definition per column on every execute — measurable server work at 14 statements per
/// oltp_read_only event.
pub const MARIADB_CLIENT_CACHE_METADATA: u32 = 1 << 4;
