//! A lab's file path field: it proposes a file beside the open document (its folder and stem,
//! the lab's suffix; for an untitled document, the data folder) and follows the document when
//! another one is opened, until the user types a path of their own. Nothing is ever written
//! into the folder the program happened to be started from.

use eframe::egui;
use std::path::{Path, PathBuf};

/// The text of a path field and the proposal it was last given.
#[derive(Clone, Debug, Default)]
pub struct PathField {
    /// What the field holds.
    pub text: String,
    /// The last proposal: while `text` equals it, the user has not typed a path of their own.
    proposed: String,
    /// The proposal's suffix, for example `.rec`.
    suffix: &'static str,
}

impl PathField {
    /// An empty field whose proposals end with `suffix`.
    pub fn new(suffix: &'static str) -> Self {
        Self {
            suffix,
            ..Self::default()
        }
    }

    /// Propose the file beside `document` (or in `data_dir` for an untitled one), unless the
    /// user typed a path of their own.
    pub fn follow(&mut self, document: Option<&Path>, data_dir: Option<&Path>) {
        let proposal = proposal(document, data_dir, self.suffix)
            .map(|p| p.display().to_string())
            .unwrap_or_default();
        if self.text == self.proposed {
            self.text.clone_from(&proposal);
        }
        self.proposed = proposal;
    }

    /// The path typed, or `None` (with the reason, for the status line) when the field is
    /// empty.
    pub fn path(&self) -> Result<PathBuf, String> {
        let text = self.text.trim();
        if text.is_empty() {
            Err(format!(
                "type a path for the {} file first (the document is untitled and there is no data folder)",
                self.suffix.trim_start_matches('.')
            ))
        } else {
            Ok(PathBuf::from(text))
        }
    }

    /// The field, labelled by `label`.
    pub fn ui(&mut self, ui: &mut egui::Ui, label: egui::Id, width: f32) -> egui::Response {
        ui.add(
            egui::TextEdit::singleline(&mut self.text)
                .hint_text(format!("file{}", self.suffix))
                .desired_width(width),
        )
        .labelled_by(label)
    }
}

/// `<document folder>/<document stem><suffix>`; `<data_dir>/untitled<suffix>` for an untitled
/// document; `None` when there is neither.
pub fn proposal(document: Option<&Path>, data_dir: Option<&Path>, suffix: &str) -> Option<PathBuf> {
    match document {
        Some(doc) => {
            let stem = doc
                .file_stem()
                .map_or("untitled".into(), |s| s.to_string_lossy().into_owned());
            let folder = doc.parent().unwrap_or(Path::new(""));
            Some(folder.join(format!("{stem}{suffix}")))
        }
        None => data_dir.map(|d| d.join(format!("untitled{suffix}"))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn proposes_beside_the_document_and_follows_it_until_the_user_types() {
        let mut field = PathField::new(".rec");
        field.follow(Some(Path::new("/levels/bullet-and-wall.json")), None);
        assert_eq!(field.text, "/levels/bullet-and-wall.rec");
        field.follow(
            Some(Path::new("/other/wall.json")),
            Some(Path::new("/data")),
        );
        assert_eq!(field.text, "/other/wall.rec");
        field.follow(None, Some(Path::new("/data")));
        assert_eq!(field.text, "/data/untitled.rec");
        field.follow(None, None);
        assert_eq!(field.text, "");
        assert!(field.path().unwrap_err().contains("type a path"));
        field.text = "mine.rec".into();
        field.follow(Some(Path::new("/levels/a.json")), None);
        assert_eq!(field.text, "mine.rec", "a typed path is the user's");
        assert_eq!(field.path().unwrap(), PathBuf::from("mine.rec"));
    }
}
