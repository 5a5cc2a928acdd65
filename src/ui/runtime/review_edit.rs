//! Editing a dream held for review: its text into a file of its own (mode 0600, in the
//! temporary directory), the terminal handed to `$EDITOR` on it, and the text read back
//! for [`App::on_dream_edited`]. The file goes once its text is sent (the observatory
//! keeps the text until the runner says it holds it) or was not changed; an edit that
//! could not be sent keeps it, and the status line says where.

use std::io::Write;
use std::path::{Path, PathBuf};

use crate::ui::state::App;
use crate::ui::update::{Foreground, HandBack, Job, Program};

/// An edit under way: whose dream, and the file the editor has.
#[derive(Debug)]
pub struct DreamEdit {
    creature: PathBuf,
    file: PathBuf,
}

/// Writes `text` to a new file and says what to hand the terminal to.
pub fn start(creature: &Path, name: &str, text: &str) -> std::io::Result<(Foreground, DreamEdit)> {
    let mut file = tempfile::Builder::new()
        .prefix("dreamwatch-dream-")
        .suffix(".txt")
        .tempfile()?;
    file.write_all(text.as_bytes())?;
    file.flush()?;
    let (_, path) = file.keep().map_err(|e| e.error)?;
    let fg = Foreground {
        program: Program::Editor {
            file: path.clone(),
            line: None,
        },
        dir: creature.to_path_buf(),
        what: format!("editing {name}'s dream"),
    };
    let edit = DreamEdit {
        creature: creature.to_path_buf(),
        file: path,
    };
    Ok((fg, edit))
}

/// The editor is done: its text is read back and checked; returns the command to send.
pub fn finish(app: &mut App, fg: &Foreground, edit: &DreamEdit, ended: HandBack) -> Vec<Job> {
    let kept = edit.file.display();
    let how = match ended {
        HandBack::Done => None,
        HandBack::Failed(how) => Some(how),
        HandBack::NotRun(why) => Some(format!("not run: {why}")),
    };
    if let Some(how) = how {
        app.dirty = true;
        app.set_notice(
            format!(
                "{}: {how}: the dream stays as it was (the text is in {kept})",
                fg.what
            ),
            true,
        );
        return Vec::new();
    }
    let text = match std::fs::read_to_string(&edit.file) {
        Ok(text) => text,
        Err(e) => {
            app.dirty = true;
            app.set_notice(
                format!(
                    "{}: cannot read {kept} back: {e}: the dream stays as it was",
                    fg.what
                ),
                true,
            );
            return Vec::new();
        }
    };
    let edited = app.on_dream_edited(&edit.creature, text, &edit.file);
    if !edited.keep {
        // Sent, or not changed: nothing of the operator's is in it that is not elsewhere.
        let _ = std::fs::remove_file(&edit.file);
    }
    edited.jobs
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_text_goes_to_a_private_file_the_editor_opens_in_the_creatures_directory() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let (fg, edit) = start(dir.path(), "pip", "=== a (append) ===\nx\n").unwrap();
        assert_eq!(
            std::fs::read_to_string(&edit.file).unwrap(),
            "=== a (append) ===\nx\n"
        );
        let mode = std::fs::metadata(&edit.file).unwrap().permissions().mode();
        assert_eq!(mode & 0o077, 0, "{mode:o}");
        assert_eq!(fg.dir, dir.path());
        assert_eq!(fg.what, "editing pip's dream");
        assert!(matches!(&fg.program, Program::Editor { file, line: None } if *file == edit.file));
        std::fs::remove_file(&edit.file).unwrap();
    }
}
