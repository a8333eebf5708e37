//! tpcc_start's closing blocks from tpcc-mysql's figures (`tpcc::peer::figures`):
//! `<Raw Results>` (its `avg_rt` over the measured time), `<Raw Results2(sum ver.)>`,
//! `<Constraint Check>` (the mix's shares; each type's share within its limit, the limits
//! compared in seconds) and `<TpmC>`, spaced as tpcc_start spaces them.

use dbpress_workload::tpcc::peer::figures::Figures;
use std::fmt::Write;

const NAMES: [&str; 5] = [
    "New-Order",
    "Payment",
    "Order-Status",
    "Delivery",
    "Stock-Level",
];

/// `x` as C's `%.Nf` prints it, NaN as glibc's `-nan` (0/0, as tpcc_start divides).
fn c_float(x: f64, decimals: usize) -> String {
    match x.is_nan() {
        true => "-nan".into(),
        false => format!("{x:.decimals$}"),
    }
}

fn ok(pass: bool) -> &'static str {
    if pass {
        "[OK]"
    } else {
        "[NG] *"
    }
}

/// The blocks after `STOPPING THREADS…`'s line; `limits` as typed, `measured` seconds.
pub fn report(f: &Figures, limits: &[i64; 5], measured: i64) -> String {
    let c = f.lock();
    let mut o = String::from("\n<Raw Results>\n");
    for (i, limit) in limits.iter().enumerate() {
        let n = c.sc[i] + c.lt[i];
        let avg = c.time_sum_ms[i] / n as f64;
        let _ = writeln!(
            o,
            "  [{i}] sc:{} lt:{}  rt:{}  fl:{} avg_rt: {} ({})",
            c.sc[i],
            c.lt[i],
            c.rt[i],
            c.fl[i],
            c_float(avg, 1),
            limit
        );
    }
    let _ = writeln!(o, " in {measured} sec.");
    o.push_str("\n<Raw Results2(sum ver.)>\n");
    for i in 0..5 {
        let _ = writeln!(
            o,
            "  [{i}] sc:{}  lt:{}  rt:{}  fl:{} ",
            c.sc[i], c.lt[i], c.rt[i], c.fl[i]
        );
    }
    o.push_str("\n<Constraint Check> (all must be [OK])\n [transaction percentage]\n");
    let all: u64 = (0..5).map(|i| c.sc[i] + c.lt[i]).sum();
    for (i, min) in [(1, 43.0), (2, 4.0), (3, 4.0), (4, 4.0)] {
        let pct = 100.0 * (c.sc[i] + c.lt[i]) as f64 / all as f64;
        let _ = writeln!(
            o,
            "{:>15}: {}% (>={min:>4.1}%) {}",
            NAMES[i],
            c_float(pct, 2),
            ok(pct >= min)
        );
    }
    o.push_str(" [response time (at least 90% passed)]\n");
    for (i, name) in NAMES.iter().enumerate() {
        let pct = 100.0 * c.sc[i] as f64 / (c.sc[i] + c.lt[i]) as f64;
        let _ = writeln!(o, "{name:>15}: {}%  {}", c_float(pct, 2), ok(pct >= 90.0));
    }
    let tpmc = (c.sc[0] + c.lt[0]) as f64 * 60.0 / measured as f64;
    let _ = writeln!(o, "\n<TpmC>\n                 {} TpmC", c_float(tpmc, 3));
    o
}

#[cfg(test)]
mod tests {
    use super::*;
    use dbpress_workload::tpcc::peer::figures::DEFAULT_LIMITS_S;

    #[test]
    fn an_empty_run_reads_as_tpcc_starts() {
        let f = Figures::new(DEFAULT_LIMITS_S);
        let r = report(&f, &[5, 5, 5, 80, 20], 2);
        assert!(r.starts_with("\n<Raw Results>\n  [0] sc:0 lt:0  rt:0  fl:0 avg_rt: -nan (5)\n"));
        assert!(
            r.contains(" in 2 sec.\n\n<Raw Results2(sum ver.)>\n  [0] sc:0  lt:0  rt:0  fl:0 \n")
        );
        assert!(r.contains(
            "        Payment: -nan% (>=43.0%) [NG] *\n   Order-Status: -nan% (>= 4.0%) [NG] *\n"
        ));
        assert!(r.contains("      New-Order: -nan%  [NG] *\n"));
        assert!(r.ends_with("\n<TpmC>\n                 0.000 TpmC\n"));
    }

    #[test]
    fn figures_are_tpcc_starts() {
        let f = Figures::new(DEFAULT_LIMITS_S);
        for _ in 0..10 {
            f.record(0, Some(10.0), 0, true);
            f.record(1, Some(2.0), 0, true);
        }
        for t in 2..5 {
            f.record(t, Some(30.0), 0, true);
        }
        let r = report(&f, &[5, 5, 5, 80, 20], 10);
        assert!(
            r.contains("  [0] sc:10 lt:0  rt:0  fl:0 avg_rt: 10.0 (5)\n"),
            "{r}"
        );
        assert!(
            r.contains("        Payment: 43.48% (>=43.0%) [OK]\n"),
            "{r}"
        );
        assert!(r.contains("    Stock-Level: 4.35% (>= 4.0%) [OK]\n"), "{r}");
        assert!(r.contains("                 60.000 TpmC\n"), "{r}");
    }
}
