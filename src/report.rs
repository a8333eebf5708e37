//! `dbpress report FILE`: a saved result (a run or a sweep) rendered again without re-running,
//! as text (what the run printed), JSON, or an HTML page with charts.

use crate::cli::OptionValues;
use crate::error::Result;
use crate::export::{self, json::Document};
use crate::{config, sweep};

enum Format {
    Text,
    Json,
    Html,
}

pub fn main(file: &str, opts: &OptionValues) -> Result<u8> {
    crate::print_notices(opts);
    let format = config::choice(opts, "output-format", "text, json, html", |s| match s {
        "text" => Some(Format::Text),
        "json" => Some(Format::Json),
        "html" => Some(Format::Html),
        _ => None,
    })?;
    match export::json::read_document(file)? {
        Document::Sweep(s) => match format {
            Format::Json => print!("{}", sweep::render_json(&s)),
            Format::Html => print!("{}", export::html::sweep_page(&s)),
            Format::Text => {
                // Each step as the sweep printed it, then the table.
                let n = s.steps.len();
                for (i, step) in s.steps.iter().enumerate() {
                    println!(
                        "=== Sweep step {} of {n}: {} threads ===\n",
                        i + 1,
                        step.threads
                    );
                    match (&step.result, &step.error) {
                        (Some(r), _) => {
                            print!("{}", export::text::interval_lines(r));
                            print!("{}", export::text::summary(r, false));
                        }
                        (None, Some(e)) => {
                            println!("dbpress: level {} did not run: {e}\n", step.threads)
                        }
                        (None, None) => {}
                    }
                }
                print!("{}", sweep::render_table(&s));
            }
        },
        Document::Run(r) => match format {
            Format::Json => print!("{}", export::json::render(&r)),
            Format::Html => print!("{}", export::html::run_page(&r)),
            Format::Text => {
                print!("{}", export::text::interval_lines(&r));
                print!(
                    "{}",
                    export::text::summary(&r, config::boolean(opts, "histogram")?)
                );
            }
        },
    }
    Ok(0)
}
