//! `\shell` and `\setshell`: a command line run by `sh -c`, as C's system() and popen() run
//! it; the messages are pgbench's, named after the command's first word.

use std::process::{Command, Stdio};

/// Longest command line pgbench builds (its buffer less the terminator).
const MAX_LINE: usize = 254;

fn first_word(line: &str) -> &str {
    line.split(' ').next().unwrap_or(line)
}

fn checked(line: &str) -> Result<(), String> {
    if line.len() > MAX_LINE {
        return Err(format!("{}: shell command is too long", first_word(line)));
    }
    Ok(())
}

/// `\shell`: run it; a failure to start or a non-zero exit is an error.
pub fn run(line: &str) -> Result<(), String> {
    checked(line)?;
    let ok = Command::new("/bin/sh")
        .arg("-c")
        .arg(line)
        .status()
        .is_ok_and(|s| s.success());
    if !ok {
        return Err(format!(
            "{}: could not launch shell command",
            first_word(line)
        ));
    }
    Ok(())
}

/// `\setshell`: run it and read the first line it prints as an integer (kept to 32 bits, as
/// pgbench keeps it); its exit status does not matter.
pub fn output_int(line: &str) -> Result<i64, String> {
    checked(line)?;
    let word = first_word(line);
    let out = Command::new("/bin/sh")
        .arg("-c")
        .arg(line)
        .stdin(Stdio::inherit())
        .stderr(Stdio::inherit())
        .output()
        .map_err(|e| format!("{word}: could not run shell command: {e}"))?;
    let text = String::from_utf8_lossy(&out.stdout);
    let Some(first) = text.split_inclusive('\n').next() else {
        return Err(format!("{word}: could not read result of shell command"));
    };
    let first: String = first.chars().take(63).collect();
    // strtol's reading: blanks before, whitespace (the newline) after.
    match first.trim().parse::<i64>() {
        Ok(n) => Ok(i64::from(n as i32)),
        Err(_) => Err(format!(
            "{word}: shell command must return an integer (not \"{first}\")"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn setshell_reads_the_first_line_as_an_integer() {
        assert_eq!(output_int("echo 42"), Ok(42));
        assert_eq!(output_int("printf ' 7\\n8\\n'"), Ok(7));
        assert_eq!(
            output_int("echo abc"),
            Err("echo: shell command must return an integer (not \"abc\n\")".to_string())
        );
        assert_eq!(
            output_int("true"),
            Err("true: could not read result of shell command".to_string())
        );
        assert!(run("true").is_ok());
        assert_eq!(
            run("false"),
            Err("false: could not launch shell command".to_string())
        );
    }
}
