//! sysbench's OLTP SQL text, byte for byte (ref sysbench.md §2.2, §2.4), so that query digests,
//! statement counts and lock patterns on the server match sysbench's.

use super::{kind, Schema};
use dbpress_driver::Dialect;

/// Statement text of `kind` for table number `t`; `legacy` gives sysbench 0.5's spellings.
pub fn statement(k: u8, t: u32, legacy: bool) -> String {
    match k {
        kind::SUM_RANGE if legacy => {
            format!("SELECT SUM(K) FROM sbtest{t} WHERE id BETWEEN ? AND ?")
        }
        kind::POINT_SELECT => format!("SELECT c FROM sbtest{t} WHERE id=?"),
        kind::SIMPLE_RANGE => format!("SELECT c FROM sbtest{t} WHERE id BETWEEN ? AND ?"),
        kind::SUM_RANGE => format!("SELECT SUM(k) FROM sbtest{t} WHERE id BETWEEN ? AND ?"),
        kind::ORDER_RANGE => format!("SELECT c FROM sbtest{t} WHERE id BETWEEN ? AND ? ORDER BY c"),
        kind::DISTINCT_RANGE => {
            format!("SELECT DISTINCT c FROM sbtest{t} WHERE id BETWEEN ? AND ? ORDER BY c")
        }
        kind::INDEX_UPDATE => format!("UPDATE sbtest{t} SET k=k+1 WHERE id=?"),
        kind::NON_INDEX_UPDATE => format!("UPDATE sbtest{t} SET c=? WHERE id=?"),
        kind::DELETE => format!("DELETE FROM sbtest{t} WHERE id=?"),
        kind::INSERT => format!("INSERT INTO sbtest{t} (id, k, c, pad) VALUES (?, ?, ?, ?)"),
        kind::BEGIN => "BEGIN".to_string(),
        kind::COMMIT => "COMMIT".to_string(),
        other => unreachable!("no statement kind {other}"),
    }
}

/// The INSERT that lets the server assign the id where the dialect asks for that by leaving
/// the column out (sysbench's pgsql oltp_insert does the same).
pub fn insert_without_id(t: u32) -> String {
    format!("INSERT INTO sbtest{t} (k, c, pad) VALUES (?, ?, ?)")
}

/// select_random_points' statement, whitespace included (it is part of the query digest).
pub fn random_points(points: u32) -> String {
    let list = vec!["?"; points as usize].join(", ");
    format!("        SELECT id, k, c, pad\n          FROM sbtest1\n          WHERE k IN ({list})\n        ")
}

/// select_random_ranges' statement.
pub fn random_ranges(ranges: u32) -> String {
    let list = vec!["k BETWEEN ? AND ?"; ranges as usize].join(" OR ");
    format!("        SELECT count(k)\n          FROM sbtest1\n          WHERE {list}")
}

pub fn create_table(s: &Schema, d: &Dialect, t: u32) -> String {
    if s.legacy {
        return create_table_legacy(s, d, t);
    }
    let id = if s.auto_inc {
        d.auto_increment_id
    } else {
        "INTEGER NOT NULL"
    };
    // Without inline KEY syntax, --secondary's id index is a CREATE INDEX after the load.
    let key = match (s.secondary, d.inline_key) {
        (false, _) => ",\n  PRIMARY KEY (id)",
        (true, true) => ",\n  KEY xid (id)",
        (true, false) => "",
    };
    let engine = if d.storage_engine_clause {
        format!(" /*! ENGINE = {} */", s.storage_engine)
    } else {
        String::new()
    };
    format!(
        "CREATE TABLE sbtest{t}(\n  id {id},\n  k INTEGER DEFAULT '0' NOT NULL,\n  c CHAR(120) DEFAULT '' NOT NULL,\n  pad CHAR(60) DEFAULT '' NOT NULL{key}\n){engine} {}",
        s.create_table_options
    )
}

/// sysbench 0.5's common.lua DDL: unsigned columns and MAX_ROWS.
fn create_table_legacy(s: &Schema, d: &Dialect, t: u32) -> String {
    let auto = if s.auto_inc && d.storage_engine_clause {
        " AUTO_INCREMENT"
    } else {
        ""
    };
    let key = match (s.secondary, d.inline_key) {
        (false, _) => ",\nPRIMARY KEY (id)",
        (true, true) => ",\nKEY xid (id)",
        (true, false) => "",
    };
    let (unsigned, engine) = if d.storage_engine_clause {
        (
            " UNSIGNED",
            format!(" /*! ENGINE = {} MAX_ROWS = 1000000 */ ", s.storage_engine),
        )
    } else {
        ("", " ".to_string())
    };
    format!(
        "CREATE TABLE sbtest{t} (\nid INTEGER{unsigned} NOT NULL{auto},\nk INTEGER{unsigned} DEFAULT '0' NOT NULL,\nc CHAR(120) DEFAULT '' NOT NULL,\npad CHAR(60) DEFAULT '' NOT NULL{key}\n){engine}{}",
        s.create_table_options
    )
}

pub fn create_index(t: u32) -> String {
    format!("CREATE INDEX k_{t} ON sbtest{t}(k)")
}

pub fn drop_table(t: u32) -> String {
    format!("DROP TABLE IF EXISTS sbtest{t}")
}

/// `c`: ten groups of eleven digits joined by dashes (119 characters).
pub const C_TEMPLATE: &[u8; 119] = b"###########-###########-###########-###########-###########-###########-###########-###########-###########-###########";
/// `pad`: five groups (59 characters).
pub const PAD_TEMPLATE: &[u8; 59] = b"###########-###########-###########-###########-###########";

#[cfg(test)]
mod tests {
    use super::*;
    use dbpress_driver::dialect::MYSQL;

    #[test]
    fn ddl_matches_sysbench() {
        let s = Schema {
            tables: 1,
            table_size: 10,
            range_size: 100,
            auto_inc: true,
            secondary: false,
            create_secondary: true,
            create_table_options: String::new(),
            storage_engine: "innodb".into(),
            legacy: false,
            prepare_fast: false,
            vacuum: true,
            load_rows: 10,
        };
        assert_eq!(
            create_table(&s, &MYSQL, 3),
            "CREATE TABLE sbtest3(\n  id INTEGER NOT NULL AUTO_INCREMENT,\n  k INTEGER DEFAULT '0' NOT NULL,\n  c CHAR(120) DEFAULT '' NOT NULL,\n  pad CHAR(60) DEFAULT '' NOT NULL,\n  PRIMARY KEY (id)\n) /*! ENGINE = innodb */ "
        );
        assert_eq!(create_index(3), "CREATE INDEX k_3 ON sbtest3(k)");
        // sysbench's pgsql DDL: SERIAL id, no ENGINE clause.
        assert_eq!(
            create_table(&s, &dbpress_driver::dialect::PGSQL, 1),
            "CREATE TABLE sbtest1(\n  id SERIAL,\n  k INTEGER DEFAULT '0' NOT NULL,\n  c CHAR(120) DEFAULT '' NOT NULL,\n  pad CHAR(60) DEFAULT '' NOT NULL,\n  PRIMARY KEY (id)\n) "
        );
        let secondary = Schema {
            secondary: true,
            ..s.clone()
        };
        assert!(create_table(&secondary, &MYSQL, 1).contains("  KEY xid (id)\n)"));
        // Elsewhere no inline KEY: the id index is created after the load.
        assert!(!create_table(&secondary, &dbpress_driver::dialect::SQLITE, 1).contains("KEY"));
        assert_eq!(
            statement(kind::INSERT, 2, false),
            "INSERT INTO sbtest2 (id, k, c, pad) VALUES (?, ?, ?, ?)"
        );
        assert_eq!(
            statement(kind::SUM_RANGE, 2, true),
            "SELECT SUM(K) FROM sbtest2 WHERE id BETWEEN ? AND ?"
        );
        assert_eq!(
            random_points(3),
            "        SELECT id, k, c, pad\n          FROM sbtest1\n          WHERE k IN (?, ?, ?)\n        "
        );
        assert_eq!(
            random_ranges(2),
            "        SELECT count(k)\n          FROM sbtest1\n          WHERE k BETWEEN ? AND ? OR k BETWEEN ? AND ?"
        );
    }

    #[test]
    fn templates_have_sysbench_lengths() {
        assert_eq!(C_TEMPLATE.len(), 119);
        assert_eq!(PAD_TEMPLATE.len(), 59);
        assert_eq!(C_TEMPLATE.iter().filter(|&&b| b == b'-').count(), 9);
        assert_eq!(PAD_TEMPLATE.iter().filter(|&&b| b == b'-').count(), 4);
    }
}
