//! The names of one TPC-C table set. By default the spec's (`warehouse`, …, `item`); with
//! sysbench-tpcc's `--tables=N`, set k has k after every table, index and constraint name
//! (`warehouse1`, `idx_customer1`, …), as sysbench-tpcc names them, so its own check and runs
//! find the same tables. SQL is written once with the spec's names and renamed per set.

/// Every identifier that belongs to a set (tables, then indexes and constraints).
const IDENTIFIERS: [&str; 25] = [
    "warehouse",
    "district",
    "customer",
    "history",
    "new_order",
    "orders",
    "order_line",
    "stock",
    "item",
    "idx_customer",
    "idx_orders",
    "fkey_stock_1",
    "fkey_stock_2",
    "fkey_order_line_1",
    "fkey_order_line_2",
    "fkey_history_1",
    "fkey_history_2",
    "fkey_district_1",
    "fkey_customer_1",
    "fkey_new_order_1",
    "fkey_orders_1",
    "ifkey_history_1",
    "ifkey_history_2",
    "ifkey_stock_2",
    "ifkey_order_line_2",
];

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Names {
    /// "" for the spec's names, the set's number otherwise.
    suffix: String,
}

impl Names {
    /// The spec's names (no `--tables`).
    pub fn plain() -> Names {
        Names {
            suffix: String::new(),
        }
    }

    /// sysbench-tpcc's set `n` (1-based).
    pub fn set(n: u32) -> Names {
        Names {
            suffix: n.to_string(),
        }
    }

    /// The sets of a database: the spec's names alone, or sets 1..=n of `--tables=n`.
    pub fn all(sets: Option<u32>) -> Vec<Names> {
        match sets {
            None => vec![Names::plain()],
            Some(n) => (1..=n).map(Names::set).collect(),
        }
    }

    /// The set's number ("" for the spec's names).
    pub fn number(&self) -> &str {
        &self.suffix
    }

    /// "" for the spec's names, " (table set 3)" for a set, for messages.
    pub fn label(&self) -> String {
        if self.suffix.is_empty() {
            String::new()
        } else {
            format!(" (table set {})", self.suffix)
        }
    }

    /// `sql` written with the spec's names, renamed for this set: every identifier of the set
    /// (a whole word: `customer` but not `c_customer` or `idx_customer` unless listed) gets the
    /// suffix.
    pub fn sql(&self, sql: &str) -> String {
        if self.suffix.is_empty() {
            return sql.to_string();
        }
        let mut out = String::with_capacity(sql.len() + 16);
        let mut word = String::new();
        let flush = |word: &mut String, out: &mut String| {
            out.push_str(word);
            if IDENTIFIERS.contains(&word.as_str()) {
                out.push_str(&self.suffix);
            }
            word.clear();
        };
        for c in sql.chars() {
            if c.is_ascii_alphanumeric() || c == '_' {
                word.push(c);
            } else {
                flush(&mut word, &mut out);
                out.push(c);
            }
        }
        flush(&mut word, &mut out);
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_set_renames_its_tables_and_indexes_and_nothing_else() {
        let sql = "CREATE INDEX idx_customer ON customer (c_w_id, c_last); SELECT o_id FROM orders, new_order WHERE s.stock = 1";
        assert_eq!(Names::plain().sql(sql), sql);
        assert_eq!(
            Names::set(3).sql(sql),
            "CREATE INDEX idx_customer3 ON customer3 (c_w_id, c_last); SELECT o_id FROM orders3, new_order3 WHERE s.stock3 = 1"
        );
        assert_eq!(Names::all(Some(2)), vec![Names::set(1), Names::set(2)]);
        assert_eq!(Names::all(None), vec![Names::plain()]);
    }
}
