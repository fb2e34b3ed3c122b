//! Hand-written SVG: a small writer that escapes every text, linear scales, "nice" tick
//! values (1, 2 or 5 times a power of ten) and a plot frame with axes, grid lines, tick
//! labels and axis titles. The charts of the report (`charts.rs`) are drawn on it.
//!
//! Colours and fonts are presentation attributes, so a chart copied out of the page
//! still looks the same.

use std::fmt::Write as _;

use super::escape;

/// Text colour of labels.
pub const INK: &str = "#1f2937";
/// Colour of tick labels and secondary text.
pub const MUTED: &str = "#6b7280";
/// Colour of grid lines.
const GRID: &str = "#e5e7eb";
/// Colour of the axes.
const AXIS: &str = "#9ca3af";

/// Series colours, in order (distinct for the common colour vision deficiencies).
pub const PALETTE: [&str; 8] = [
    "#2563eb", "#ea580c", "#059669", "#9333ea", "#dc2626", "#0891b2", "#ca8a04", "#4b5563",
];

/// A linear map from data values to pixels.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Scale {
    domain: (f64, f64),
    range: (f64, f64),
}

impl Scale {
    /// Maps `domain` onto `range`; an empty domain is widened by one unit each side.
    #[must_use]
    pub fn new(domain: (f64, f64), range: (f64, f64)) -> Scale {
        let (lo, hi) = domain;
        let domain = if hi > lo {
            (lo, hi)
        } else {
            (lo - 1.0, lo + 1.0)
        };
        Scale { domain, range }
    }

    /// The values mapped (an empty domain as widened).
    #[must_use]
    pub fn domain(&self) -> (f64, f64) {
        self.domain
    }

    /// The pixel of a value.
    #[must_use]
    pub fn map(&self, v: f64) -> f64 {
        let (d0, d1) = self.domain;
        let (r0, r1) = self.range;
        r0 + (v - d0) / (d1 - d0) * (r1 - r0)
    }
}

/// Tick values covering `[lo, hi]` with about `target` steps of 1, 2 or 5 times a power
/// of ten, and the step. The first tick is at or below `lo`, the last at or above `hi`.
#[must_use]
pub fn nice_ticks(lo: f64, hi: f64, target: usize) -> (Vec<f64>, f64) {
    let (lo, hi) = match (lo.is_finite(), hi.is_finite()) {
        (true, true) if hi > lo => (lo, hi),
        (true, _) => (lo - 1.0, lo + 1.0),
        _ => (0.0, 1.0),
    };
    let raw = (hi - lo) / target.max(1) as f64;
    let power = 10f64.powf(raw.log10().floor());
    let step = [1.0, 2.0, 5.0, 10.0]
        .into_iter()
        .map(|m| m * power)
        .find(|s| *s >= raw)
        .unwrap_or(10.0 * power);
    let first = (lo / step).floor();
    let last = (hi / step).ceil();
    let ticks = (0..=((last - first) as i64).clamp(0, 100))
        .map(|i| (first + i as f64) * step)
        .collect();
    (ticks, step)
}

/// A tick label with as many decimals as the step needs.
#[must_use]
pub fn tick_label(v: f64, step: f64) -> String {
    let decimals = if step >= 1.0 {
        0
    } else {
        (-step.log10().floor()) as usize
    };
    let text = format!("{v:.decimals$}");
    if text
        .trim_start_matches('-')
        .chars()
        .all(|c| c == '0' || c == '.')
    {
        "0".to_owned()
    } else {
        text
    }
}

/// An SVG document being written.
#[derive(Debug)]
pub struct Svg {
    out: String,
}

impl Svg {
    /// Opens a document of `width` x `height` user units, scaled to its container's width.
    #[must_use]
    pub fn new(width: f64, height: f64, label: &str) -> Svg {
        let out = format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {width} {height}\" \
             width=\"100%\" role=\"img\" aria-label=\"{}\" \
             font-family=\"system-ui, -apple-system, 'Segoe UI', Roboto, 'DejaVu Sans', sans-serif\" \
             font-size=\"12\">\n",
            escape(label)
        );
        Svg { out }
    }

    /// A straight line; `dash` like `"4 3"`.
    pub fn line(&mut self, from: (f64, f64), to: (f64, f64), stroke: &str, width: f64, dash: &str) {
        let dash = if dash.is_empty() {
            String::new()
        } else {
            format!(" stroke-dasharray=\"{dash}\"")
        };
        let _ = writeln!(
            self.out,
            "<line x1=\"{:.1}\" y1=\"{:.1}\" x2=\"{:.1}\" y2=\"{:.1}\" stroke=\"{stroke}\" stroke-width=\"{width}\"{dash}/>",
            from.0, from.1, to.0, to.1
        );
    }

    /// Text at a point; `anchor` is `start`, `middle` or `end`; `extra` more attributes.
    pub fn text(&mut self, at: (f64, f64), anchor: &str, fill: &str, extra: &str, text: &str) {
        let _ = writeln!(
            self.out,
            "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"{anchor}\" fill=\"{fill}\" {extra}>{}</text>",
            at.0,
            at.1,
            escape(text)
        );
    }

    /// A rectangle with a fill and more attributes.
    pub fn rect(&mut self, at: (f64, f64), size: (f64, f64), fill: &str, extra: &str) {
        let _ = writeln!(
            self.out,
            "<rect x=\"{:.1}\" y=\"{:.1}\" width=\"{:.1}\" height=\"{:.1}\" fill=\"{fill}\" {extra}/>",
            at.0,
            at.1,
            size.0.max(0.0),
            size.1.max(0.0)
        );
    }

    /// A polyline through the points, or a closed filled polygon.
    pub fn poly(&mut self, points: &[(f64, f64)], closed: bool, paint: &str) {
        if points.is_empty() {
            return;
        }
        let list: Vec<String> = points
            .iter()
            .map(|(x, y)| format!("{x:.1},{y:.1}"))
            .collect();
        let tag = if closed { "polygon" } else { "polyline" };
        let _ = writeln!(self.out, "<{tag} points=\"{}\" {paint}/>", list.join(" "));
    }

    /// A circle.
    pub fn circle(&mut self, at: (f64, f64), r: f64, fill: &str) {
        let _ = writeln!(
            self.out,
            "<circle cx=\"{:.1}\" cy=\"{:.1}\" r=\"{r}\" fill=\"{fill}\"/>",
            at.0, at.1
        );
    }

    /// A series as a line in the first colour, its last point marked and its value
    /// written beside it (to the left near `right`, the plot's right edge); `label`
    /// adds attributes to that text.
    pub fn value_line(
        &mut self,
        pixels: &[(f64, f64)],
        last: Option<f64>,
        right: f64,
        label: &str,
    ) {
        self.poly(
            pixels,
            false,
            &format!(
                "fill=\"none\" stroke=\"{}\" stroke-width=\"2\" stroke-linejoin=\"round\"",
                PALETTE[0]
            ),
        );
        if let (Some(&(x, y)), Some(v)) = (pixels.last(), last) {
            self.circle((x, y), 3.5, PALETTE[0]);
            let anchor = if x > right - 80.0 { "end" } else { "start" };
            let dx = if anchor == "end" { -8.0 } else { 8.0 };
            let attributes = if label.is_empty() {
                "font-weight=\"600\"".to_owned()
            } else {
                format!("font-weight=\"600\" {label}")
            };
            self.text(
                (x + dx, y - 8.0),
                anchor,
                PALETTE[0],
                &attributes,
                &format!("{v:.2}"),
            );
        }
    }

    /// Markup written as is (callers escape their text).
    pub fn raw(&mut self, markup: &str) {
        self.out.push_str(markup);
    }

    /// Closes the document.
    #[must_use]
    pub fn finish(mut self) -> String {
        self.out.push_str("</svg>\n");
        self.out
    }
}

/// The plot area of a chart: margins, scales and the ticks of both axes.
#[derive(Clone, Debug)]
pub struct Frame {
    pub width: f64,
    pub height: f64,
    pub left: f64,
    pub right: f64,
    pub top: f64,
    pub bottom: f64,
    pub x: Scale,
    pub y: Scale,
    x_ticks: (Vec<f64>, f64),
    y_ticks: (Vec<f64>, f64),
}

impl Frame {
    /// A frame of `size` with the data ranges widened to nice ticks. `x` is `None` for
    /// charts whose horizontal axis is categories (bars). `legend_rows` rows are left
    /// for a legend under the title.
    #[must_use]
    pub fn new(
        size: (f64, f64),
        x: Option<(f64, f64)>,
        y: (f64, f64),
        legend_rows: usize,
    ) -> Frame {
        let (width, height) = size;
        let top = 36.0 + 20.0 * legend_rows as f64;
        let (left, right, bottom) = (64.0, 24.0, 48.0);
        // The horizontal axis counts pairs: whole-number steps.
        let x_ticks = x.map_or((Vec::new(), 1.0), |(lo, hi)| {
            let steps = ((hi - lo).ceil() as usize).clamp(1, 8);
            nice_ticks(lo, hi, steps)
        });
        let y_ticks = nice_ticks(y.0, y.1, 6);
        let span = |t: &(Vec<f64>, f64), d: (f64, f64)| {
            (
                t.0.first().copied().unwrap_or(d.0),
                t.0.last().copied().unwrap_or(d.1),
            )
        };
        let x_domain = x.map_or((0.0, 1.0), |d| span(&x_ticks, d));
        Frame {
            width,
            height,
            left,
            right,
            top,
            bottom,
            x: Scale::new(x_domain, (left, width - right)),
            y: Scale::new(span(&y_ticks, y), (height - bottom, top)),
            x_ticks,
            y_ticks,
        }
    }

    /// The pixel of a data point.
    #[must_use]
    pub fn at(&self, x: f64, y: f64) -> (f64, f64) {
        (self.x.map(x), self.y.map(y))
    }

    /// Left, right, top and bottom pixels of the plot area.
    #[must_use]
    pub fn area(&self) -> (f64, f64, f64, f64) {
        (
            self.left,
            self.width - self.right,
            self.top,
            self.height - self.bottom,
        )
    }

    /// A clip path named `id` around the plot area (for bands that run off the scale).
    pub fn clip(&self, svg: &mut Svg, id: &str) {
        let (l, r, t, b) = self.area();
        svg.raw(&format!(
            "<defs><clipPath id=\"{id}\"><rect x=\"{l:.1}\" y=\"{t:.1}\" width=\"{:.1}\" height=\"{:.1}\"/></clipPath></defs>\n",
            r - l,
            b - t
        ));
    }

    /// Title, grid, axes, tick labels and axis titles.
    pub fn draw_axes(&self, svg: &mut Svg, title: &str, x_title: &str, y_title: &str) {
        let (l, r, t, b) = self.area();
        svg.text(
            (l, 20.0),
            "start",
            INK,
            "font-size=\"14\" font-weight=\"600\"",
            title,
        );
        for &v in &self.y_ticks.0 {
            let y = self.y.map(v);
            svg.line((l, y), (r, y), GRID, 1.0, "");
            let label = tick_label(v, self.y_ticks.1);
            svg.text((l - 8.0, y + 4.0), "end", MUTED, "", &label);
        }
        for &v in &self.x_ticks.0 {
            let x = self.x.map(v);
            svg.line((x, b), (x, b + 5.0), AXIS, 1.0, "");
            let label = tick_label(v, self.x_ticks.1);
            svg.text((x, b + 18.0), "middle", MUTED, "", &label);
        }
        svg.line((l, b), (r, b), AXIS, 1.0, "");
        svg.line((l, t), (l, b), AXIS, 1.0, "");
        svg.text(
            ((l + r) / 2.0, self.height - 8.0),
            "middle",
            INK,
            "",
            x_title,
        );
        let (cx, cy) = (16.0, (t + b) / 2.0);
        svg.text(
            (cx, cy),
            "middle",
            INK,
            &format!("transform=\"rotate(-90 {cx:.1} {cy:.1})\""),
            y_title,
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ticks_are_round_and_cover_the_range() {
        let (ticks, step) = nice_ticks(-2.94, 2.94, 6);
        assert_eq!(step, 1.0);
        assert_eq!(ticks.first().copied(), Some(-3.0));
        assert_eq!(ticks.last().copied(), Some(3.0));
        let (ticks, step) = nice_ticks(0.0, 137.0, 8);
        assert_eq!(step, 20.0);
        assert_eq!(ticks.last().copied(), Some(140.0));
        let (ticks, _) = nice_ticks(5.0, 5.0, 6);
        assert!(ticks.len() >= 2);
    }

    #[test]
    fn labels_have_the_decimals_of_the_step() {
        assert_eq!(tick_label(0.5, 0.5), "0.5");
        assert_eq!(tick_label(-0.0, 0.5), "0");
        assert_eq!(tick_label(200.0, 100.0), "200");
    }

    #[test]
    fn text_is_escaped() {
        let mut svg = Svg::new(10.0, 10.0, "<a>");
        svg.text((0.0, 0.0), "start", INK, "", "x < y & \"z\"");
        let out = svg.finish();
        assert!(out.contains("x &lt; y &amp; &quot;z&quot;"));
        assert!(out.contains("aria-label=\"&lt;a&gt;\""));
    }
}
