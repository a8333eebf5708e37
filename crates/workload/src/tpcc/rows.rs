//! One row of each TPC-C table as clause 4.3 populates it, written into a `RowBatch` in the
//! table's column order: dbpress's bulk load (`load`) and tpcc-mysql's row-at-a-time load
//! (`peer::load`, dbpress as tpcc_load) make their rows here, so both loads hold the same data.

use super::gen::{self, CConstants};
use dbpress_core::rand::Rng;
use dbpress_driver::RowBatch;

/// The items of clause 4.3.3.1 (ITEM's cardinality, and STOCK's per warehouse).
pub const ITEMS: u32 = 100_000;
/// Customers (and orders) per district.
pub const CUSTOMERS: u32 = 3_000;
/// The first undelivered order of a district (orders 2101..=3000 are NEW-ORDER rows).
pub const FIRST_NEW_ORDER: u32 = 2_101;

/// A connection's row maker: its random stream, scratch text, the load's timestamp and the
/// C constant of C_LAST.
pub struct RowGen<'a> {
    pub rng: &'a mut Rng,
    s: Vec<u8>,
    /// The load's start as a timestamp literal (C_SINCE, H_DATE, O_ENTRY_D, OL_DELIVERY_D).
    ts: Vec<u8>,
    c_last: u32,
}

impl<'a> RowGen<'a> {
    pub fn new(rng: &'a mut Rng, loaded_at: u64, c: CConstants) -> RowGen<'a> {
        let mut ts = Vec::new();
        gen::timestamp(loaded_at, &mut ts);
        RowGen {
            rng,
            s: Vec::new(),
            ts,
            c_last: c.c_last,
        }
    }

    pub fn item(&mut self, b: &mut RowBatch, i: u32) {
        b.int(i64::from(i));
        b.int(i64::from(self.rng.uniform(1, 10_000)));
        self.text(b, |r, s| gen::a_string(r, 14, 24, s));
        self.text(b, |r, s| {
            gen::decimal(i64::from(r.uniform(100, 10_000)), 2, s)
        });
        self.text(b, gen::data_with_original);
    }

    pub fn warehouse(&mut self, b: &mut RowBatch, w: u32) {
        b.int(i64::from(w));
        self.address(b);
        self.tax(b);
        b.str(b"300000.00");
    }

    pub fn district(&mut self, b: &mut RowBatch, d: u32, w: u32) {
        b.int(i64::from(d));
        b.int(i64::from(w));
        self.address(b);
        self.tax(b);
        b.str(b"30000.00");
        b.int(3001);
    }

    /// S_I_ID, S_W_ID, S_QUANTITY, S_DIST_01..10, S_YTD, S_ORDER_CNT, S_REMOTE_CNT, S_DATA.
    pub fn stock(&mut self, b: &mut RowBatch, i: u32, w: u32) {
        b.int(i64::from(i));
        b.int(i64::from(w));
        b.int(i64::from(self.rng.uniform(10, 100)));
        for _ in 0..10 {
            self.text(b, |r, s| gen::letters(r, 24, s));
        }
        b.int(0);
        b.int(0);
        b.int(0);
        self.text(b, gen::data_with_original);
    }

    /// Customer `c` of district `d`: C_LAST is name number c−1 for the first 1 000, NURand
    /// after; 10 % have bad credit (`BC`).
    pub fn customer(&mut self, b: &mut RowBatch, c: u32, d: u32, w: u32) {
        b.int(i64::from(c));
        b.int(i64::from(d));
        b.int(i64::from(w));
        self.text(b, |r, s| gen::a_string(r, 8, 16, s));
        b.str(b"OE");
        let syllables = if c <= 1000 {
            c - 1
        } else {
            gen::nurand(self.rng, 255, 0, 999, self.c_last)
        };
        gen::last_name(syllables, &mut self.s);
        b.str(&self.s);
        self.street_city_state_zip(b);
        self.text(b, |r, s| gen::n_string(r, 16, s));
        b.str(&self.ts);
        b.str(if self.rng.uniform(1, 10) == 1 {
            b"BC"
        } else {
            b"GC"
        });
        b.str(b"50000.00");
        self.text(b, |r, s| gen::decimal(i64::from(r.uniform(0, 5000)), 4, s));
        b.str(b"-10.00");
        b.str(b"10.00");
        b.int(1);
        b.int(0);
        self.text(b, |r, s| gen::a_string(r, 300, 500, s));
    }

    pub fn history(&mut self, b: &mut RowBatch, c: u32, d: u32, w: u32) {
        for v in [c, d, w, d, w] {
            b.int(i64::from(v));
        }
        b.str(&self.ts);
        b.str(b"10.00");
        self.text(b, |r, s| gen::a_string(r, 12, 24, s));
    }

    /// Order `o` of district `d`, by customer `c`, with `lines` lines: delivered (a carrier)
    /// below the first new order.
    pub fn order(&mut self, b: &mut RowBatch, o: u32, d: u32, w: u32, c: u32, lines: u32) {
        for v in [o, d, w, c] {
            b.int(i64::from(v));
        }
        b.str(&self.ts);
        if o < FIRST_NEW_ORDER {
            b.int(i64::from(self.rng.uniform(1, 10)));
        } else {
            b.null();
        }
        b.int(i64::from(lines));
        b.int(1);
    }

    pub fn new_order(&mut self, b: &mut RowBatch, o: u32, d: u32, w: u32) {
        for v in [o, d, w] {
            b.int(i64::from(v));
        }
    }

    /// Line `number` of order `o`: a delivered order's lines carry the load's time and no
    /// amount, a new order's an amount and no delivery time.
    pub fn order_line(&mut self, b: &mut RowBatch, o: u32, d: u32, w: u32, number: u32) {
        for v in [o, d, w, number] {
            b.int(i64::from(v));
        }
        b.int(i64::from(self.rng.uniform(1, ITEMS)));
        b.int(i64::from(w));
        let delivered = o < FIRST_NEW_ORDER;
        if delivered {
            b.str(&self.ts);
        } else {
            b.null();
        }
        b.int(5);
        if delivered {
            b.str(b"0.00");
        } else {
            self.text(b, |r, s| {
                gen::decimal(i64::from(r.uniform(1, 999_999)), 2, s)
            });
        }
        self.text(b, |r, s| gen::letters(r, 24, s));
    }

    /// A district's customers in random order (O_C_ID of orders 1..=3000).
    pub fn customer_permutation(&mut self) -> Vec<u16> {
        let mut perm: Vec<u16> = (1..=CUSTOMERS as u16).collect();
        for i in (1..perm.len()).rev() {
            let j = self.rng.uniform(0, i as u32) as usize;
            perm.swap(i, j);
        }
        perm
    }

    /// An order's line count, 5..=15.
    pub fn line_count(&mut self) -> u32 {
        self.rng.uniform(5, 15)
    }

    /// A string value made by `make` from the random stream.
    fn text(&mut self, b: &mut RowBatch, make: impl FnOnce(&mut Rng, &mut Vec<u8>)) {
        self.s.clear();
        make(self.rng, &mut self.s);
        b.str(&self.s);
    }

    /// Name, two streets, city, state, zip.
    fn address(&mut self, b: &mut RowBatch) {
        self.text(b, |r, s| gen::a_string(r, 6, 10, s));
        self.street_city_state_zip(b);
    }

    fn street_city_state_zip(&mut self, b: &mut RowBatch) {
        for _ in 0..3 {
            self.text(b, |r, s| gen::a_string(r, 10, 20, s));
        }
        self.text(b, |r, s| gen::letters(r, 2, s));
        self.text(b, gen::zip);
    }

    /// A tax rate in [0.0000..0.2000].
    fn tax(&mut self, b: &mut RowBatch) {
        self.text(b, |r, s| gen::decimal(i64::from(r.uniform(0, 2000)), 4, s));
    }
}
