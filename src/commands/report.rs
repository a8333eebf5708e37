//! `dbpress report FILE`: a saved result (a run or a sweep) rendered again without re-running,
//! as text (what the run printed), JSON, CSV (its intervals or levels), Markdown, or an HTML
//! page with charts.

use dbpress_core::error::Result;
use dbpress_core::options::OptionValues;
use dbpress_report::document::Document;
use dbpress_report::{by_format, Format, OutputFormat};

/// `dbpress report FILE [options]` as the command table calls it.
pub fn call(call: &super::subcommand::Call<'_>) -> Result<u8> {
    let file = call.words.first().ok_or_else(|| {
        dbpress_core::error::usage(
            "`dbpress report` needs a result file: dbpress report results.json",
        )
    })?;
    main(file, call.opts)
}

pub fn main(file: &str, opts: &OptionValues) -> Result<u8> {
    crate::cli::print_notices(opts);
    let names = format!("{}, html", OutputFormat::NAMES);
    // The formats of a run or a sweep, or an HTML page with charts.
    let format = opts.choice(dbpress_config::keys::OUTPUT_FORMAT, &names, Format::parse)?;
    match dbpress_report::document::read_document(file)? {
        Document::Sweep(s) => match format {
            Format::Text => {
                // Each step as the sweep printed it, then the table.
                let n = s.steps.len();
                for (i, step) in s.steps.iter().enumerate() {
                    dbpress_core::outln!(
                        "=== Sweep step {} of {n}: {} threads ===\n",
                        i + 1,
                        step.threads
                    );
                    match (&step.result, &step.error) {
                        (Some(r), _) => {
                            dbpress_core::out!("{}", dbpress_report::text::interval_lines(r));
                            dbpress_core::out!("{}", dbpress_report::text::summary(r, false));
                        }
                        (None, Some(e)) => {
                            dbpress_core::outln!(
                                "dbpress: level {} did not run: {e}\n",
                                step.threads
                            )
                        }
                        (None, None) => {}
                    }
                }
                dbpress_core::out!("{}", dbpress_report::text::sweep::render_table(&s));
            }
            f => dbpress_core::out!("{}", by_format(f).sweep(&s)),
        },
        Document::Run(r) => match format {
            Format::Text => {
                dbpress_core::out!("{}", dbpress_report::text::interval_lines(&r));
                dbpress_core::out!(
                    "{}",
                    dbpress_report::text::summary(&r, opts.flag(dbpress_config::keys::HISTOGRAM)?)
                );
            }
            f => dbpress_core::out!("{}", by_format(f).run(&r)),
        },
    }
    Ok(0)
}
