//! A thread sweep's closing table as text: one line per level, then what the CPU and disk
//! columns mean.

use dbpress_result::sweep::SweepResult;

pub fn render_table(s: &SweepResult) -> String {
    let cell = |v: Option<f64>, prec: usize| v.map_or("-".to_string(), |v| format!("{v:.prec$}"));
    // The CPU columns only when some level has them (not in results of earlier versions).
    let with_cpu = s.table.iter().any(|r| r.cpu.is_some());
    let cpu_head = if with_cpu {
        format!(" {:>10} {:>7} {:>7}", "CPUs busy", "server", "dbpress")
    } else {
        String::new()
    };
    // A TPC-C sweep's tpmC per level, the figure its studies chart.
    let with_tpmc = s.table.iter().any(|r| r.tpmc.is_some());
    let tpmc_head = if with_tpmc {
        format!(" {:>10}", "tpmC")
    } else {
        String::new()
    };
    let with_disk = s.table.iter().any(|r| r.disk.is_some());
    let disk_head = if with_disk {
        format!(" {:>9}", "disk busy")
    } else {
        String::new()
    };
    let with_wait = s.table.iter().any(|r| r.top_wait.is_some());
    let wait_head = if with_wait {
        format!("  {:<28}", "top server wait")
    } else {
        String::new()
    };
    // `dbpress slap --engine`: a first column names each row's storage engine.
    let engine_width = s
        .table
        .iter()
        .filter_map(|r| r.engine.as_ref().map(String::len))
        .max()
        .map(|w| w.max("engine".len()));
    let engine_cell = |e: Option<&str>| match engine_width {
        Some(w) => format!("{:<w$} ", e.unwrap_or("-")),
        None => String::new(),
    };
    let levels = match engine_width {
        Some(_) => {
            let mut engines: Vec<&str> =
                s.table.iter().filter_map(|r| r.engine.as_deref()).collect();
            engines.dedup();
            format!("{} engines x {} levels", engines.len(), s.levels.len())
        }
        None => format!("{} levels", s.levels.len()),
    };
    let mut out = format!(
        "\nThread sweep, {} ({levels}):\n    {}{:>7} {:>12} {:>12} {:>10} {:>10} {:>9} {:>8}{tpmc_head}{cpu_head}{disk_head}{}\n",
        s.workload,
        engine_cell(Some("engine")),
        "threads",
        "TPS",
        "QPS",
        "p95 ms",
        "p99 ms",
        "err/s",
        "vs best",
        wait_head.trim_end()
    );
    for r in &s.table {
        let f: Vec<String> = crate::sweep_row::sweep_row_cells(r)
            .into_iter()
            .map(|c| if c.is_empty() { "-".into() } else { c })
            .collect();
        out.push_str(&format!(
            "    {}{:>7} {:>12} {:>12} {:>10} {:>10} {:>9} {:>8}",
            engine_cell(r.engine.as_deref()),
            f[0],
            f[1],
            f[2],
            f[3],
            f[4],
            f[5],
            f[6]
        ));
        if with_tpmc {
            out.push_str(&format!(" {:>10}", cell(r.tpmc, 0)));
        }
        if with_cpu {
            let c = r.cpu.as_ref();
            out.push_str(&format!(
                " {:>10} {:>7} {:>7}",
                cell(c.map(|c| c.busy), 2),
                cell(c.and_then(|c| c.server), 2),
                cell(c.map(|c| c.dbpress), 2),
            ));
        }
        if with_disk {
            let busy = r.disk.as_ref().map(|d| format!("{:.0}%", d.busy * 100.0));
            out.push_str(&format!(" {:>9}", busy.as_deref().unwrap_or("-")));
        }
        if with_wait {
            let wait = r
                .top_wait
                .as_ref()
                .map(|w| format!("{:.0}% {}", w.share * 100.0, w.event));
            out.push_str(&format!("  {:<28}", wait.as_deref().unwrap_or("-")));
        }
        for text in [&r.note, &r.error].into_iter().flatten() {
            out.push_str("  ");
            out.push_str(text);
        }
        // The last column is padded for the notes after it; a row without any ends at its
        // last figure.
        out.truncate(out.trim_end_matches(' ').len());
        out.push('\n');
    }
    if let Some(cpus) = s
        .steps
        .iter()
        .find_map(|st| st.result.as_ref()?.host_usage.as_ref())
        .map(|h| h.cpus)
    {
        out.push_str(&format!(
            "    CPUs: average CPUs busy on this machine (of {cpus}), and of them the server's process's and dbpress's (from /proc)\n"
        ));
    }
    if let Some(w) = s
        .steps
        .iter()
        .find_map(|st| st.result.as_ref()?.server_waits.as_ref())
        .filter(|_| with_wait)
    {
        out.push_str(&format!(
            "    top server wait: the most frequent of what the server said the level's sessions were doing ({}, sampled every {} ms)\n",
            w.source, w.every_ms
        ));
    }
    if let Some(d) = s
        .steps
        .iter()
        .find_map(|st| st.result.as_ref()?.host_usage.as_ref()?.disk.as_ref())
    {
        out.push_str(&format!(
            "    disk busy: share of the time {} (holding {}) had a request in flight (from /proc/diskstats)\n",
            d.device, d.path
        ));
    }
    out
}
