//! The charts of a tune's report, drawn on the match report's SVG code
//! (`output::report::svg`): theta of one parameter over the pairs, and the theta+
//! side's moving score.
//!
//! A parameter's axis spans the values theta took (and its start), with a little
//! padding, not the whole min..max: SPSA moves theta by a few units in a range of
//! hundreds, and on the whole range every line looks flat. The start is a dashed line;
//! min and max are lines when they fall inside the axis, else a note says where they are.

use crate::output::report::svg::{Frame, Svg, INK, MUTED};
use crate::tune::params::TuneParam;

/// Size of one parameter's chart when there are several (two a row on a wide page).
const HALF: (f64, f64) = (470.0, 260.0);
/// Size of the score chart, and of a parameter alone.
const WIDE: (f64, f64) = (960.0, 260.0);
/// Colour of the min and max lines.
const LIMIT: &str = "#dc2626";
/// A white outline under a label, so that a line it crosses does not hide it.
const HALO: &str =
    "paint-order=\"stroke\" stroke=\"#ffffff\" stroke-width=\"3\" stroke-linejoin=\"round\"";
/// Padding around the values, as a share of their span.
const PAD: f64 = 0.1;

/// The range the axis must show: the values and the start, padded. A flat line gets
/// a padding of its own size (1 for values near 0), so it sits in the middle.
#[must_use]
pub fn value_range(values: &[f64], start: f64) -> (f64, f64) {
    let (lo, hi) = values
        .iter()
        .copied()
        .filter(|v| v.is_finite())
        .fold((start, start), |(lo, hi), v| (lo.min(v), hi.max(v)));
    let span = hi - lo;
    let pad = if span > 0.0 {
        PAD * span
    } else {
        (0.05 * lo.abs()).max(1.0)
    };
    (lo - pad, hi + pad)
}

/// The pixel points of a series on a frame.
fn points(frame: &Frame, xs: &[u64], ys: &[f64]) -> Vec<(f64, f64)> {
    xs.iter()
        .zip(ys)
        .filter(|(_, y)| y.is_finite())
        .map(|(&x, &y)| frame.at(x as f64, y))
        .collect()
}

/// Where a reference line's label goes: over the line, or under it (a max at the top
/// of the plot would print over the title).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Label {
    Over,
    Under,
}

/// A horizontal line across the plot: its colour and dash, and its label at its left
/// end (at its right end when `at_right`).
struct Reference<'a> {
    colour: &'a str,
    dash: &'a str,
    label: &'a str,
    place: Label,
    at_right: bool,
}

impl Reference<'_> {
    fn draw(&self, svg: &mut Svg, frame: &Frame, value: f64) {
        let (l, r, _, _) = frame.area();
        let y = frame.y.map(value);
        svg.line((l, y), (r, y), self.colour, 1.5, self.dash);
        let dy = if self.place == Label::Over {
            -5.0
        } else {
            14.0
        };
        let (x, anchor) = if self.at_right {
            (r - 6.0, "end")
        } else {
            (l + 6.0, "start")
        };
        svg.text(
            (x, y + dy),
            anchor,
            self.colour,
            &format!("font-weight=\"600\" {HALO}"),
            self.label,
        );
    }
}

/// theta of `param` after each of `pairs` (point 0 the start), over `played` pairs;
/// `wide` for a parameter alone on its page, which gets the page's width.
#[must_use]
pub fn param_chart(
    param: &TuneParam,
    pairs: &[u64],
    values: &[f64],
    played: u64,
    wide: bool,
) -> String {
    let size = if wide { WIDE } else { HALF };
    let frame = Frame::new(
        size,
        Some((0.0, played.max(1) as f64)),
        value_range(values, param.start),
        0,
    );
    let mut svg = Svg::new(size.0, size.1, &format!("{} over pairs", param.name));
    frame.draw_axes(&mut svg, &param.name, "pairs", "value");
    let (shown_lo, shown_hi) = frame.y.domain();
    let mut off = Vec::new();
    for (name, limit, place) in [
        ("max", param.max, Label::Under),
        ("min", param.min, Label::Over),
    ] {
        if (shown_lo..=shown_hi).contains(&limit) {
            let label = format!("{name} {limit}");
            let line = Reference {
                colour: LIMIT,
                dash: "",
                label: &label,
                place,
                at_right: false,
            };
            line.draw(&mut svg, &frame, limit);
        } else {
            let side = if limit > shown_hi { "above" } else { "below" };
            off.push(format!("{name} {limit} {side}"));
        }
    }
    let pixels = points(&frame, pairs, values);
    let label = format!("start {}", param.start);
    let start = Reference {
        colour: MUTED,
        dash: "6 4",
        label: &label,
        place: Label::Over,
        // The last value's label sits beside its point: while that point is in the plot's
        // left part (the first pairs) the start's label, at the left too, would print
        // over it ("130.00" over "start 130"), so it goes to the right end instead.
        at_right: pixels
            .last()
            .is_some_and(|&(x, _)| x < frame.area().0 + LEFT_PART),
    };
    start.draw(&mut svg, &frame, param.start);
    if !off.is_empty() {
        // On the title's line, at the right: where the limits off the axis are.
        let (_, r, _, _) = frame.area();
        svg.text((r, 20.0), "end", MUTED, "", &off.join(", "));
    }
    svg.value_line(&pixels, values.last().copied(), frame.area().1, HALO);
    svg.finish()
}

/// How far from the plot's left a last point's label may reach a label at the left end
/// (a start label of about 12 characters and the value's of 8, 7 px each, and gaps).
const LEFT_PART: f64 = 160.0;

/// The theta+ side's score per game averaged over `window` pairs, after each pair.
#[must_use]
pub fn score_chart(xs: &[u64], ys: &[f64], window: usize, played: u64) -> String {
    let frame = Frame::new(WIDE, Some((0.0, played.max(1) as f64)), (0.0, 1.0), 0);
    let mut svg = Svg::new(WIDE.0, WIDE.1, "theta+ score over pairs");
    frame.draw_axes(
        &mut svg,
        &format!("The theta+ side's score per game, over the last {window} pairs"),
        "pairs",
        "score",
    );
    let even = Reference {
        colour: INK,
        dash: "2 3",
        label: "even",
        place: Label::Over,
        at_right: false,
    };
    even.draw(&mut svg, &frame, 0.5);
    let pixels = points(&frame, xs, ys);
    svg.value_line(&pixels, ys.last().copied(), frame.area().1, HALO);
    svg.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn param(start: f64, min: f64, max: f64) -> TuneParam {
        TuneParam {
            name: "Margin".to_owned(),
            start,
            min,
            max,
            c_end: 4.0,
            r_end: 0.002,
            origin: None,
        }
    }

    /// The numbers of a chart's vertical axis.
    fn y_ticks(svg: &str) -> Vec<f64> {
        svg.lines()
            .filter(|l| l.starts_with("<text x=\"56.0\"") && l.contains("text-anchor=\"end\""))
            .filter_map(|l| l.split('>').nth(1)?.split('<').next()?.parse().ok())
            .collect()
    }

    #[test]
    fn the_axis_spans_the_values_not_the_whole_range() {
        let values = [130.0, 131.5, 133.0, 129.0, 132.0];
        let svg = param_chart(
            &param(130.0, 0.0, 400.0),
            &[0, 1, 2, 3, 4],
            &values,
            4,
            false,
        );
        let ticks = y_ticks(&svg);
        let (lo, hi) = (ticks[0], ticks[ticks.len() - 1]);
        assert!((125.0..=129.0).contains(&lo), "{ticks:?}");
        assert!((133.0..=140.0).contains(&hi), "{ticks:?}");
        // Both limits are far off: said in words, not drawn.
        assert!(svg.contains(">max 400 above, min 0 below</text>"), "{svg}");
        assert!(!svg.contains(">max 400</text>") && !svg.contains(">min 0</text>"));
        assert!(svg.contains(">start 130</text>") && svg.contains("stroke-dasharray=\"6 4\""));
        assert!(svg.contains(">132.00</text>"), "the last value is written");
    }

    /// The x, y and anchor of the text `label` in `svg`.
    fn text_at(svg: &str, label: &str) -> (f64, f64, String) {
        let end = svg.find(&format!(">{label}</text>")).expect(label);
        let start = svg[..end].rfind("<text ").expect("a text");
        let tag = &svg[start..end];
        let attr = |k: &str| {
            let at = tag.find(&format!("{k}=\"")).expect(k) + k.len() + 2;
            tag[at..].split('"').next().unwrap_or_default().to_owned()
        };
        (
            attr("x").parse().unwrap_or(f64::NAN),
            attr("y").parse().unwrap_or(f64::NAN),
            attr("text-anchor"),
        )
    }

    /// The span a label takes across, at 7 px a character.
    fn span(x: f64, anchor: &str, chars: usize) -> (f64, f64) {
        let w = 7.0 * chars as f64;
        if anchor == "end" {
            (x - w, x)
        } else {
            (x, x + w)
        }
    }

    #[test]
    fn the_start_label_never_prints_over_the_last_value() {
        // Before any pair and after a few, on the start: the value's label is at the
        // left; the start's moves to the right end.
        for (pairs, values, played) in [
            (vec![0], vec![130.0], 0),
            (vec![0, 1], vec![130.0, 130.0], 40),
        ] {
            let svg = param_chart(&param(130.0, 0.0, 400.0), &pairs, &values, played, false);
            let (sx, sy, sa) = text_at(&svg, "start 130");
            let (vx, vy, va) = text_at(&svg, "130.00");
            let (s0, s1) = span(sx, &sa, "start 130".len());
            let (v0, v1) = span(vx, &va, "130.00".len());
            let apart = s1 < v0 || v1 < s0 || (sy - vy).abs() >= 12.0;
            assert!(
                apart,
                "start at {sx},{sy} ({sa}), value at {vx},{vy} ({va})"
            );
        }
        // At the end of the plot the start's label stays at the left.
        let svg = param_chart(
            &param(130.0, 0.0, 400.0),
            &[0, 40],
            &[130.0, 130.0],
            40,
            false,
        );
        assert_eq!(text_at(&svg, "start 130").2, "start");
    }

    #[test]
    fn a_limit_inside_the_axis_is_a_labelled_line() {
        let values = [95.0, 97.0, 99.5, 100.0];
        let svg = param_chart(&param(95.0, 0.0, 100.0), &[0, 1, 2, 3], &values, 3, true);
        assert!(svg.contains(">max 100</text>"), "{svg}");
        assert!(svg.contains(">min 0 below</text>"), "{svg}");
        let ticks = y_ticks(&svg);
        assert!(ticks[0] >= 90.0, "{ticks:?}");
    }

    #[test]
    fn a_flat_line_still_gets_an_axis() {
        let (lo, hi) = value_range(&[5.0, 5.0], 5.0);
        assert!(lo < 5.0 && hi > 5.0);
        let (lo, hi) = value_range(&[0.0], 0.0);
        assert_eq!((lo, hi), (-1.0, 1.0));
    }
}
