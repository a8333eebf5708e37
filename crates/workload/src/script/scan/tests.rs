use super::*;

fn sql(text: &str, line: usize) -> Piece {
    let mut shown = text.lines().next().unwrap().to_string();
    if !text.contains('\n') {
        shown.push(';');
    }
    Piece::Sql {
        text: text.into(),
        line,
        shown,
        ended: true,
    }
}

#[test]
fn statements_end_at_semicolons_outside_quotes_comments_and_parentheses() {
    let p = pieces(
        "-- a comment\nSELECT ';', \"a;b\" FROM t;\n\nSELECT $$x;y$$ /* c; */, (SELECT 1; ) ;UPDATE t\n  SET a = 1",
    )
    .unwrap();
    assert_eq!(
        p,
        vec![
            sql("SELECT ';', \"a;b\" FROM t", 2),
            sql("SELECT $$x;y$$ /* c; */, (SELECT 1; )", 4),
            Piece::Sql {
                text: "UPDATE t\n  SET a = 1".into(),
                line: 4,
                shown: "UPDATE t".into(),
                ended: false,
            },
        ]
    );
}

#[test]
fn backslashes_start_meta_commands_and_join_compounds() {
    let p = pieces("\\set a 1 +\\\n  2\nSELECT 1 \\; SELECT :a \\gset p_\n\\sleep 1 ms\n").unwrap();
    assert_eq!(p.len(), 4);
    assert_eq!(
        p[0],
        Piece::Meta {
            name: "set".into(),
            args: " a 1 +\\\n  2".into(),
            line: 1,
            source: "\\set a 1 +\\\n  2".into(),
            ends_file: false,
        }
    );
    assert!(
        matches!(&p[1], Piece::Sql { text, line: 3, shown, ended: false } if text == "SELECT 1 ; SELECT :a" && shown == text)
    );
    assert!(
        matches!(&p[2], Piece::Meta { name, args, line: 3, .. } if name == "gset" && args == " p_")
    );
    assert!(matches!(&p[3], Piece::Meta { name, line: 4, .. } if name == "sleep"));
}

#[test]
fn unterminated_quotes_are_errors_with_their_line() {
    assert_eq!(
        pieces("SELECT 1;\nSELECT 'abc;\n").unwrap_err(),
        (2, "unterminated quoted string".to_string())
    );
    assert_eq!(
        pieces("/* open\n").unwrap_err().1,
        "unterminated /* comment"
    );
    assert_eq!(
        pieces("SELECT E'a\\'b;c';").unwrap(),
        vec![sql("SELECT E'a\\'b;c'", 1)]
    );
}
