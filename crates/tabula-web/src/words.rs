//! The page's words in two languages, and the server's English turned into keys of those words.
//!
//! Every string the page shows lives in one table per language, `assets/i18n/en.json` and
//! `assets/i18n/zh-CN.json`: flat objects from a key to a template, whose `{name}` holes the page fills with
//! arguments. The page renders everything it shows from them, the server's text included: the server answers
//! each text with [`Words`], a key and its arguments, beside the English it always sent.
//!
//! The games speak English through [`Front`](tabula_protocol::front::Front) (side names, results, scores,
//! feature names, errors). Their phrases are the English table's `said.` keys, written exactly as the games
//! write them: `said.<name>` for any game, `said.<game>.<name>` for one game only. A [`Phrasebook`] reads a
//! game's text back into the key whose template writes it, with the holes as arguments; a hole written
//! `{@name}` holds a phrase of its own, read back the same way (`{@side} to move has lost.`). Text that no
//! phrase writes (a move, a FEN, a number) stays text. So the English table is both what the English page
//! shows and what the server recognises, and rendering a recognised text in English gives it back.
//!
//! For example, chess's score `mate in 2` reads back as the key `said.mate_in` with `n` = `2`, which the Chinese
//! table writes `2 步杀`; `White is checkmated: Black wins.` as `said.chess.checkmated` whose `side` and `winner`
//! are the phrases `said.chess.white` and `said.chess.black`.

use serde::Serialize;
use std::collections::{BTreeMap, HashMap};
use std::sync::LazyLock;
use tabula_protocol::front::FrontError;

/// The tables, by language: `(language tag, JSON)`, English first.
pub(crate) const TABLES: [(&str, &str); 2] =
    [("en", include_str!("../assets/i18n/en.json")), ("zh-CN", include_str!("../assets/i18n/zh-CN.json"))];

/// The English table, read once: what the server recognises and writes its English with.
pub(crate) static ENGLISH: LazyLock<Phrasebook> = LazyLock::new(Phrasebook::embedded);

/// The prefix of the keys whose English templates are phrases the games write.
const SAID: &str = "said.";

/// A text as the page renders it in any language: a key of the tables with its arguments, or text shown as it
/// is (notation, numbers, keys).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum Words {
    /// The template `key`, its holes filled with `args`.
    Said {
        /// A key of the tables.
        key: String,
        /// The arguments, by hole name.
        #[serde(skip_serializing_if = "BTreeMap::is_empty")]
        args: BTreeMap<String, Words>,
    },
    /// Text in no language.
    Text {
        /// The text.
        text: String,
    },
}

impl Default for Words {
    /// No text.
    fn default() -> Words {
        Words::text("")
    }
}

impl Words {
    /// Text shown as it is.
    pub fn text(text: impl Into<String>) -> Words {
        Words::Text { text: text.into() }
    }

    /// The template `key` with `args`.
    pub fn said<const N: usize>(key: &str, args: [(&str, Words); N]) -> Words {
        Words::Said { key: key.into(), args: args.into_iter().map(|(name, w)| (name.to_string(), w)).collect() }
    }
}

/// A game's refusal as words: the frame (a position, a move) with the game's reason read back as a phrase.
pub(crate) fn front_error(game: &str, error: &FrontError) -> Words {
    let book = &*ENGLISH;
    match error {
        FrontError::Position { text, reason } => {
            Words::said("error.position", [("text", Words::text(text)), ("reason", book.words(game, reason))])
        }
        FrontError::Move { text, reason } => {
            Words::said("error.move", [("text", Words::text(text)), ("reason", book.words(game, reason))])
        }
        FrontError::Setup(message) => book.words(game, message),
    }
}

/// One piece of a template: literal text, or a hole (`{name}`, or `{@name}` for a phrase of its own).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Part {
    Literal(String),
    Hole { name: String, phrase: bool },
}

/// Splits a template into its parts; `None` if a brace is unbalanced.
pub(crate) fn parts(template: &str) -> Option<Vec<Part>> {
    let mut parts = Vec::new();
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        let close = open + rest[open..].find('}')?;
        if open > 0 {
            parts.push(Part::Literal(rest[..open].to_string()));
        }
        let hole = &rest[open + 1..close];
        let (name, phrase) = match hole.strip_prefix('@') {
            Some(name) => (name, true),
            None => (hole, false),
        };
        if name.is_empty() || name.contains('{') {
            return None;
        }
        parts.push(Part::Hole { name: name.to_string(), phrase });
        rest = &rest[close + 1..];
    }
    if rest.contains('}') {
        return None;
    }
    if !rest.is_empty() {
        parts.push(Part::Literal(rest.to_string()));
    }
    Some(parts)
}

/// A phrase the games write: its key, the game it belongs to (any if `None`), and its template's parts.
#[derive(Debug)]
struct Phrase {
    key: String,
    game: Option<String>,
    parts: Vec<Part>,
    /// The length of its literal text: of two phrases that read a text, the one with more literal text wins.
    literal: usize,
}

/// The English table: renders [`Words`] in English and reads the games' English back into them.
#[derive(Debug)]
pub struct Phrasebook {
    templates: HashMap<String, String>,
    /// The `said.` phrases, most literal text first, one game's before any game's.
    phrases: Vec<Phrase>,
}

/// A table read from its JSON.
pub(crate) fn table(json: &str) -> BTreeMap<String, String> {
    serde_json::from_str(json).expect("an embedded table is a JSON object of strings (tested)")
}

impl Phrasebook {
    /// The phrasebook of the embedded English table.
    pub fn embedded() -> Phrasebook {
        Phrasebook::from_table(table(TABLES[0].1))
    }

    fn from_table(templates: BTreeMap<String, String>) -> Phrasebook {
        let mut phrases: Vec<Phrase> = templates
            .iter()
            .filter_map(|(key, template)| {
                let name = key.strip_prefix(SAID)?;
                let game = name.split_once('.').map(|(game, _)| game.to_string());
                let parts = parts(template)?;
                let literal = parts.iter().map(|p| if let Part::Literal(l) = p { l.len() } else { 0 }).sum();
                Some(Phrase { key: key.clone(), game, parts, literal })
            })
            .collect();
        phrases.sort_by_key(|p| (std::cmp::Reverse(p.literal), p.game.is_none()));
        Phrasebook { templates: templates.into_iter().collect(), phrases }
    }

    /// The game's `text` as words: the phrase that writes it, or the text itself.
    pub fn words(&self, game: &str, text: &str) -> Words {
        let text = text.trim();
        for phrase in &self.phrases {
            if phrase.game.as_deref().is_some_and(|g| g != game) {
                continue;
            }
            let mut holes = Vec::new();
            if matches(&phrase.parts, text, &mut holes) {
                let args = holes
                    .into_iter()
                    .map(|(part, value)| {
                        let Part::Hole { name, phrase } = part else { unreachable!("only holes are captured") };
                        let value = value.trim();
                        let words = if *phrase { self.words(game, value) } else { Words::text(value) };
                        (name.clone(), words)
                    })
                    .collect();
                return Words::Said { key: phrase.key.clone(), args };
            }
        }
        Words::text(text)
    }

    /// The words in English: the template with its holes filled, or the text.
    pub fn english(&self, words: &Words) -> String {
        match words {
            Words::Text { text } => text.clone(),
            Words::Said { key, args } => {
                let Some(template) = self.templates.get(key) else { return key.clone() };
                let Some(parts) = parts(template) else { return template.clone() };
                parts
                    .iter()
                    .map(|part| match part {
                        Part::Literal(text) => text.clone(),
                        Part::Hole { name, .. } => args.get(name).map_or_else(String::new, |w| self.english(w)),
                    })
                    .collect()
            }
        }
    }
}

/// Whether `text` reads as `parts`, each hole taking at least one character; the holes' texts are pushed
/// on `holes`, the shortest first where two readings exist.
fn matches<'p>(parts: &'p [Part], text: &str, holes: &mut Vec<(&'p Part, String)>) -> bool {
    match parts {
        [] => text.is_empty(),
        [Part::Literal(literal), rest @ ..] => {
            text.strip_prefix(literal.as_str()).is_some_and(|after| matches(rest, after, holes))
        }
        [hole @ Part::Hole { .. }] => {
            let taken = !text.trim().is_empty();
            if taken {
                holes.push((hole, text.to_string()));
            }
            taken
        }
        [hole @ Part::Hole { .. }, Part::Literal(literal), rest @ ..] => {
            let mut from = 1;
            while let Some(at) = text.get(from..).and_then(|t| t.find(literal.as_str())).map(|i| i + from) {
                let depth = holes.len();
                if !text[..at].trim().is_empty() {
                    holes.push((hole, text[..at].to_string()));
                    if matches(rest, &text[at + literal.len()..], holes) {
                        return true;
                    }
                    holes.truncate(depth);
                }
                from = at + text[at..].chars().next().map_or(1, char::len_utf8);
            }
            false
        }
        // Two holes side by side cannot be told apart: the tables' test refuses such templates.
        [Part::Hole { .. }, Part::Hole { .. }, ..] => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;
    use tabula::score::{describe, loss_by, loss_in, win_by, win_in, Distance, Wording};

    fn holes(template: &str) -> BTreeSet<String> {
        parts(template)
            .unwrap_or_else(|| panic!("unbalanced braces in {template:?}"))
            .into_iter()
            .filter_map(|p| match p {
                Part::Hole { name, phrase } => Some(format!("{}{name}", if phrase { "@" } else { "" })),
                Part::Literal(_) => None,
            })
            .collect()
    }

    #[test]
    fn both_tables_have_the_same_keys_none_empty_and_the_same_holes() {
        let en = table(TABLES[0].1);
        for (language, json) in TABLES {
            let other = table(json);
            let missing: Vec<_> = en.keys().filter(|k| !other.contains_key(*k)).collect();
            let extra: Vec<_> = other.keys().filter(|k| !en.contains_key(*k)).collect();
            assert!(
                missing.is_empty() && extra.is_empty(),
                "{language}: missing {missing:?}, not in English {extra:?}"
            );
            for (key, value) in &other {
                assert!(!value.trim().is_empty(), "{language}: `{key}` is empty");
                assert_eq!(holes(value), holes(&en[key]), "{language}: `{key}` has other holes than in English");
                let parts = parts(value).unwrap();
                let adjacent = parts.windows(2).any(|w| matches!(w, [Part::Hole { .. }, Part::Hole { .. }]));
                assert!(!adjacent || !key.starts_with(SAID), "`{key}`: two holes side by side cannot be read back");
            }
        }
        assert!(en.len() > 100, "{} keys", en.len());
    }

    #[test]
    fn the_chinese_table_is_chinese() {
        // Every Chinese template has Chinese in it, unless it is only notation, a name or a number.
        let zh = table(TABLES[1].1);
        // The languages are named in their own language in both tables; tic-tac-toe's sides are its marks.
        let english_alike = ["lang.en", "said.tictactoe.x", "said.tictactoe.o"];
        for (key, value) in &zh {
            let han = value.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c));
            let letters = parts(value).unwrap().iter().any(|p| match p {
                Part::Literal(l) => l.chars().any(|c| c.is_ascii_alphabetic()),
                Part::Hole { .. } => false,
            });
            assert!(han || !letters || english_alike.contains(&key.as_str()), "`{key}`: {value:?} is not Chinese");
        }
    }

    /// Whether `t(` at `at` of `source` calls the page's `t`, not a function whose name ends in `t`.
    fn calls_t(source: &str, at: usize) -> bool {
        !source[..at].chars().last().is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '.' || c == '$')
    }

    /// Every key the page names (`t("key")` in the script, `data-i18n="key"` in the page) is in the tables.
    #[test]
    fn the_page_names_no_key_missing_from_the_tables() {
        let en = table(TABLES[0].1);
        let script = include_str!("../assets/app.js");
        let page = include_str!("../assets/index.html");
        let mut named = Vec::new();
        for (source, opening) in [(script, "t(\""), (page, "data-i18n=\"")] {
            let mut from = 0;
            while let Some(at) = source[from..].find(opening).map(|i| i + from) {
                from = at + opening.len();
                if opening.starts_with('t') && !calls_t(source, at) {
                    continue;
                }
                let end = from + source[from..].find('"').expect("a closing quote");
                named.push(source[from..end].to_string());
            }
        }
        assert!(named.len() > 60, "the page names {} keys: {named:?}", named.len());
        let missing: Vec<_> = named.iter().filter(|k| !en.contains_key(*k)).collect();
        assert!(missing.is_empty(), "the page names keys that are not in the tables: {missing:?}");
        // The script builds no key from pieces except those whose families the server's tests check (game names,
        // settings): a `t(` that does not open with a quoted key is one of them.
        let mut from = 0;
        while let Some(at) = script[from..].find("t(").map(|i| i + from) {
            from = at + 2;
            if !calls_t(script, at) {
                continue;
            }
            let rest = &script[from..];
            let allowed = ["\"", "`game.", "`setting.", "`choice.", "`lang.", "key", "words.key", "el.dataset.i18n"];
            assert!(
                allowed.iter().any(|a| rest.starts_with(a)),
                "a key built otherwise: t({}",
                &rest[..40.min(rest.len())]
            );
        }
    }

    #[test]
    fn scores_read_back_into_words_that_write_them() {
        let book = &*ENGLISH;
        let chess = Wording { distance: Distance::Mate, unit: "cp", margin_unit: "" };
        let wordings = [chess, Wording::PLIES, Wording::MOVES];
        let scores =
            [win_in(1), win_in(3), win_in(4), loss_in(2), loss_in(5), win_by(1), win_by(7), loss_by(3), 0, 35, -35];
        for wording in wordings {
            for score in scores {
                for exact in [false, true] {
                    let text = describe(score, exact, &wording);
                    let words = book.words("chess", &text);
                    assert_eq!(book.english(&words), text, "{words:?}");
                    let number = text.trim_start_matches(['+', '-']).parse::<i32>().is_ok();
                    assert!(number || matches!(words, Words::Said { .. }), "{text:?} is no phrase");
                }
            }
        }
        assert_eq!(book.words("chess", "mate in 2"), Words::said("said.mate_in", [("n", Words::text("2"))]));
        assert_eq!(book.words("chess", "+35 cp"), Words::said("said.plus_cp", [("n", Words::text("35"))]));
        assert_eq!(
            book.words("go", "win rate 54.1%"),
            Words::said("said.go.win_rate", [("rate", Words::text("54.1"))])
        );
    }

    #[test]
    fn phrases_within_phrases_and_one_games_phrases() {
        let book = &*ENGLISH;
        let said = book.words("chess", "White is checkmated: Black wins.");
        let side = |key: &str| Words::said(key, []);
        assert_eq!(
            said,
            Words::said(
                "said.chess.checkmated",
                [("side", side("said.chess.white")), ("winner", side("said.chess.black"))]
            )
        );
        // Xiangqi's Black is another phrase than chess's.
        let lost = book.words("xiangqi", "Black to move has lost.");
        assert_eq!(lost, Words::said("said.lost", [("side", side("said.xiangqi.black"))]));
        // A move in a phrase stays notation, even where a phrase reads the same text.
        let error =
            book.words("go", "the game is over: Both players passed: B+3.5 (area scoring, every stone counted alive).");
        assert_eq!(
            book.english(&error),
            "the game is over: Both players passed: B+3.5 (area scoring, every stone counted alive)."
        );
        let Words::Said { args, .. } = &error else { panic!("{error:?}") };
        let Words::Said { key, args } = &args["result"] else { panic!("{error:?}") };
        assert_eq!(key, "said.go.passed");
        assert_eq!(args["result"], Words::said("said.go.black_by", [("margin", Words::text("3.5"))]));
        // Text no phrase writes stays text.
        assert_eq!(book.words("chess", "Nf3"), Words::text("Nf3"));
    }
}
