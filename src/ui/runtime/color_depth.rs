//! Colour depth: themes and syntax colours are written in 24-bit RGB, which `TERM=xterm`
//! or the Linux console show wrongly or not at all. The depth is detected once (COLORTERM,
//! TERM, as `supports-color` reads them) and every cell is mapped down to it on its way
//! to the terminal, so that no widget has to care.

use ratatui::backend::{Backend, ClearType, WindowSize};
use ratatui::buffer::Cell;
use ratatui::layout::{Position, Size};
use ratatui::style::Color;

/// How many colours the terminal shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ColorDepth {
    TrueColor,
    Ansi256,
    Ansi16,
}

impl ColorDepth {
    /// What the terminal on stdout says it supports (`NO_COLOR` is handled by the theme).
    pub fn detect() -> Self {
        match supports_color::on(supports_color::Stream::Stdout) {
            Some(level) if level.has_16m => Self::TrueColor,
            Some(level) if level.has_256 => Self::Ansi256,
            _ => Self::Ansi16,
        }
    }

    /// `color` as this depth can show it: the nearest colour of the 256 or 16 palette.
    pub fn map(self, color: Color) -> Color {
        match (self, color) {
            (Self::TrueColor, c) => c,
            (Self::Ansi256, Color::Rgb(r, g, b)) => {
                Color::Indexed(ansi_colours::ansi256_from_rgb((r, g, b)))
            }
            (Self::Ansi16, Color::Rgb(r, g, b)) => nearest_ansi16((r, g, b)),
            (Self::Ansi16, Color::Indexed(i)) if i >= 16 => {
                nearest_ansi16(ansi_colours::rgb_from_ansi256(i))
            }
            (_, c) => c,
        }
    }
}

/// The ANSI colour that keeps what `rgb` means in a theme: greys stay greys (black, dark
/// grey, grey, white by lightness); any other colour keeps its hue (red, yellow, green,
/// cyan, blue, magenta, the nearest of six) and takes the bright variant when it is
/// bright. A nearest-RGB match would turn the muted greens and yellows of the themes into
/// greys, losing RED/YLW/GRN. Written by hand: the crates that map colours (such as
/// `ansi_colours`) stop at the 256 palette.
fn nearest_ansi16((r, g, b): (u8, u8, u8)) -> Color {
    let (r, g, b) = (i32::from(r), i32::from(g), i32::from(b));
    let max = r.max(g).max(b);
    let min = r.min(g).min(b);
    let chroma = max - min;
    if chroma < 40 {
        return match (max + min) / 2 {
            l if l < 60 => Color::Black,
            l if l < 150 => Color::DarkGray,
            l if l < 230 => Color::Gray,
            _ => Color::White,
        };
    }
    // Hue in degrees, 0..360.
    let hue = if max == r {
        (60 * (g - b) / chroma).rem_euclid(360)
    } else if max == g {
        60 * (b - r) / chroma + 120
    } else {
        60 * (r - g) / chroma + 240
    };
    let sector = ((hue + 30) / 60) % 6;
    let bright = max > 220;
    let colours = [
        (Color::Red, Color::LightRed),
        (Color::Yellow, Color::LightYellow),
        (Color::Green, Color::LightGreen),
        (Color::Cyan, Color::LightCyan),
        (Color::Blue, Color::LightBlue),
        (Color::Magenta, Color::LightMagenta),
    ];
    let (normal, light) = colours[usize::try_from(sector).unwrap_or(0)];
    if bright { light } else { normal }
}

/// A backend that maps every cell's colours to `depth` before the inner backend draws it.
#[derive(Debug)]
pub struct DepthBackend<B> {
    inner: B,
    depth: ColorDepth,
}

impl<B> DepthBackend<B> {
    pub fn new(inner: B, depth: ColorDepth) -> Self {
        Self { inner, depth }
    }
}

/// Raw writes (synchronized-update markers) go straight through.
impl<B: std::io::Write> std::io::Write for DepthBackend<B> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.inner.write(buf)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
}

impl<B: Backend> Backend for DepthBackend<B> {
    type Error = B::Error;

    fn draw<'a, I>(&mut self, content: I) -> Result<(), Self::Error>
    where
        I: Iterator<Item = (u16, u16, &'a Cell)>,
    {
        if self.depth == ColorDepth::TrueColor {
            return self.inner.draw(content);
        }
        let mapped: Vec<(u16, u16, Cell)> = content
            .map(|(x, y, cell)| {
                let mut cell = cell.clone();
                cell.fg = self.depth.map(cell.fg);
                cell.bg = self.depth.map(cell.bg);
                (x, y, cell)
            })
            .collect();
        self.inner
            .draw(mapped.iter().map(|(x, y, cell)| (*x, *y, cell)))
    }

    fn append_lines(&mut self, n: u16) -> Result<(), Self::Error> {
        self.inner.append_lines(n)
    }

    fn hide_cursor(&mut self) -> Result<(), Self::Error> {
        self.inner.hide_cursor()
    }

    fn show_cursor(&mut self) -> Result<(), Self::Error> {
        self.inner.show_cursor()
    }

    fn get_cursor_position(&mut self) -> Result<Position, Self::Error> {
        self.inner.get_cursor_position()
    }

    fn set_cursor_position<P: Into<Position>>(&mut self, position: P) -> Result<(), Self::Error> {
        self.inner.set_cursor_position(position)
    }

    fn clear(&mut self) -> Result<(), Self::Error> {
        self.inner.clear()
    }

    fn clear_region(&mut self, clear_type: ClearType) -> Result<(), Self::Error> {
        self.inner.clear_region(clear_type)
    }

    fn size(&self) -> Result<Size, Self::Error> {
        self.inner.size()
    }

    fn window_size(&mut self) -> Result<WindowSize, Self::Error> {
        self.inner.window_size()
    }

    fn flush(&mut self) -> Result<(), Self::Error> {
        self.inner.flush()
    }
}

#[cfg(test)]
mod tests {
    use ratatui::Terminal;
    use ratatui::backend::TestBackend;
    use ratatui::style::{Style, Stylize};
    use ratatui::text::Span;

    use super::*;

    #[test]
    fn true_colour_passes_through() {
        let c = Color::Rgb(12, 34, 56);
        assert_eq!(ColorDepth::TrueColor.map(c), c);
    }

    #[test]
    fn rgb_goes_to_the_nearest_of_256() {
        assert_eq!(
            ColorDepth::Ansi256.map(Color::Rgb(255, 0, 0)),
            Color::Indexed(196)
        );
        assert_eq!(
            ColorDepth::Ansi256.map(Color::Rgb(128, 128, 128)),
            Color::Indexed(244)
        );
        assert_eq!(ColorDepth::Ansi256.map(Color::Red), Color::Red);
    }

    #[test]
    fn rgb_and_the_256_palette_keep_their_hue_in_16() {
        let d = ColorDepth::Ansi16;
        assert_eq!(d.map(Color::Rgb(250, 10, 10)), Color::LightRed);
        assert_eq!(d.map(Color::Rgb(200, 0, 0)), Color::Red);
        // The dark theme's RED, YLW and GRN keep their meaning.
        assert_eq!(d.map(Color::Rgb(0xff, 0x7b, 0x72)), Color::LightRed);
        assert_eq!(d.map(Color::Rgb(0xe3, 0xb3, 0x41)), Color::LightYellow);
        assert_eq!(d.map(Color::Rgb(0x56, 0xd3, 0x64)), Color::Green);
        // The light theme's darker ones too.
        assert_eq!(d.map(Color::Rgb(0x9a, 0x67, 0x00)), Color::Yellow);
        assert_eq!(d.map(Color::Rgb(0x1a, 0x7f, 0x37)), Color::Green);
        assert_eq!(d.map(Color::Rgb(0x79, 0xc0, 0xff)), Color::LightCyan);
        // Greys stay greys.
        assert_eq!(d.map(Color::Rgb(0xc9, 0xd1, 0xd9)), Color::Gray);
        assert_eq!(d.map(Color::Rgb(0x7d, 0x85, 0x90)), Color::DarkGray);
        assert_eq!(d.map(Color::Rgb(10, 10, 12)), Color::Black);
        assert_eq!(d.map(Color::Rgb(255, 255, 250)), Color::White);
        assert_eq!(d.map(Color::Indexed(196)), Color::LightRed);
        assert_eq!(d.map(Color::Indexed(3)), Color::Indexed(3));
        assert_eq!(d.map(Color::Reset), Color::Reset);
    }

    #[test]
    fn the_backend_maps_every_cell_it_draws() {
        let backend = DepthBackend::new(TestBackend::new(4, 1), ColorDepth::Ansi16);
        let mut terminal = Terminal::new(backend).unwrap();
        terminal
            .draw(|f| {
                let span = Span::styled("ab", Style::new().fg(Color::Rgb(250, 0, 0)))
                    .bg(Color::Rgb(0, 0, 0));
                f.render_widget(span, f.area());
            })
            .unwrap();
        let cell = &terminal.backend().inner.buffer()[(0, 0)];
        assert_eq!(cell.symbol(), "a");
        assert_eq!(cell.fg, Color::LightRed);
        assert_eq!(cell.bg, Color::Black);
    }
}
