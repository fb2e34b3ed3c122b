//! The charts of the report, as SVG strings: the LLR over pairs with its two bounds,
//! Elo over pairs with a shaded 95% band, the pentanomial histogram, and the rating
//! list as intervals. Each takes the numbers and returns a whole `<svg>` element.

use super::series::Point;
use super::svg::{nice_ticks, tick_label, Frame, Scale, Svg, INK, MUTED, PALETTE};
use crate::output::summary::RatingLine;
use crate::stats::Penta;

/// Size of the wide charts (LLR, Elo).
const WIDE: (f64, f64) = (960.0, 300.0);
/// Size of the half-width charts (histogram, ratings).
const HALF: (f64, f64) = (470.0, 300.0);
/// Colour of the H1 bound.
const GREEN: &str = "#059669";
/// Colour of the H0 bound.
const RED: &str = "#dc2626";

/// The largest pair count of the series, at least 1.
fn max_pairs<'a>(series: impl Iterator<Item = &'a [Point]>) -> f64 {
    series
        .filter_map(|s| s.last().map(|p| p.pairs))
        .max()
        .unwrap_or(1)
        .max(1) as f64
}

/// Where each legend entry goes: (x, row), rows wrapping at `width` from x = 0.
fn legend_layout(names: &[&str], width: f64) -> Vec<(f64, usize)> {
    let mut x = 0.0;
    let mut row = 0;
    names
        .iter()
        .map(|name| {
            // About 6.5 px per character at 12 px, plus the swatch and a gap.
            let w = 6.5 * name.chars().count() as f64 + 34.0;
            if x > 0.0 && x + w > width {
                x = 0.0;
                row += 1;
            }
            let at = (x, row);
            x += w;
            at
        })
        .collect()
}

/// Rows a legend needs (0 for a single series, which needs none).
fn legend_rows(names: &[&str], width: f64) -> usize {
    if names.len() < 2 {
        return 0;
    }
    legend_layout(names, width).last().map_or(0, |l| l.1 + 1)
}

/// A legend of coloured swatches in the rows under the title, from `left`.
fn legend(svg: &mut Svg, left: f64, width: f64, names: &[&str]) {
    if names.len() < 2 {
        return;
    }
    for (i, (name, (x, row))) in names.iter().zip(legend_layout(names, width)).enumerate() {
        let colour = PALETTE[i % PALETTE.len()];
        let y = 29.0 + 20.0 * row as f64;
        svg.rect((left + x, y), (14.0, 10.0), colour, "rx=\"2\"");
        svg.text((left + x + 18.0, y + 9.0), "start", INK, "", name);
    }
}

/// The LLR after each pair with the H0 (lower) and H1 (upper) bounds.
#[must_use]
pub fn llr_chart(points: &[Point], lower: f64, upper: f64, design: &str) -> String {
    let values: Vec<(f64, f64)> = points
        .iter()
        .filter_map(|p| p.llr.map(|l| (p.pairs as f64, l)))
        .collect();
    let lo = values.iter().map(|v| v.1).fold(lower, f64::min);
    let hi = values.iter().map(|v| v.1).fold(upper, f64::max);
    let pad = 0.08 * (hi - lo);
    let frame = Frame::new(
        WIDE,
        Some((0.0, max_pairs([points].into_iter()))),
        (lo - pad, hi + pad),
        0,
    );
    let mut svg = Svg::new(WIDE.0, WIDE.1, "LLR over pairs");
    frame.draw_axes(&mut svg, &format!("LLR ({design})"), "pairs", "LLR");
    let (l, r, _, _) = frame.area();
    svg.line(frame.at(0.0, 0.0), (r, frame.y.map(0.0)), MUTED, 1.0, "2 3");
    // Bounds a few pixels apart (an LLR far beyond them sets the scale): H0's label
    // moves to the middle, so the two do not print over each other.
    let close = (frame.y.map(upper) - frame.y.map(lower)).abs() < 24.0;
    for (bound, colour, text) in [
        (upper, GREEN, "H1 accepted above"),
        (lower, RED, "H0 accepted below"),
    ] {
        let y = frame.y.map(bound);
        svg.line((l, y), (r, y), colour, 1.5, "6 4");
        // Left, where the LLR (starting at 0) is far from either bound.
        let label = format!("{text} {bound:.2}");
        let dy = if bound >= 0.0 { -6.0 } else { 15.0 };
        let x = if close && bound < 0.0 {
            (l + r) / 2.0
        } else {
            l + 8.0
        };
        svg.text((x, y + dy), "start", colour, "font-weight=\"600\"", &label);
    }
    let pixels: Vec<(f64, f64)> = values.iter().map(|&(x, y)| frame.at(x, y)).collect();
    svg.value_line(&pixels, values.last().map(|&(_, v)| v), r, "");
    svg.finish()
}

/// What the Elo chart plots: logistic Elo, or normalized Elo for an SPRT in nElo, and
/// the SPRT's `elo0` and `elo1` as lines.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct EloAxis {
    pub normalized: bool,
    pub bounds: Option<(f64, f64)>,
}

impl EloAxis {
    /// The value and its 95% interval of a point, in the axis's unit.
    fn of(self, p: &Point) -> (f64, f64, f64) {
        if self.normalized {
            (p.nelo, p.nelo - p.nelo_ci95, p.nelo + p.nelo_ci95)
        } else {
            (p.elo, p.elo_lower, p.elo_upper)
        }
    }
}

/// The vertical range of the Elo chart: the lines from the fifth of the run on, where
/// the estimate has settled, the band (of a single pairing) from the half of the run on,
/// and 0. The first pairs swing by hundreds of Elo (one pair WW reads +1000); they run
/// off the top or bottom, clipped, instead of squashing the rest of the run flat.
fn elo_range(series: &[(String, &[Point])], axis: EloAxis, band: bool) -> (f64, f64) {
    let all_max = max_pairs(series.iter().map(|s| s.1));
    let (mut lo, mut hi) = (0.0_f64, 0.0_f64);
    for (_, points) in series {
        for (i, p) in points.iter().enumerate() {
            let last = i + 1 == points.len();
            let (v, low, high) = axis.of(p);
            let mut shown = Vec::new();
            if p.pairs as f64 >= all_max / 5.0 || last {
                shown.push(v);
            }
            // The band narrows slowly (as one over the root of the pairs): its second
            // half sets the range, the wide start is clipped.
            if band && (p.pairs as f64 >= all_max / 2.0 || last) {
                shown.extend([low, high]);
            }
            for x in shown.into_iter().filter(|x| x.is_finite()) {
                lo = lo.min(x);
                hi = hi.max(x);
            }
        }
    }
    (lo, hi)
}

/// The farthest the Elo chart's axis goes from 0. After one or two pairs the interval
/// is degenerate (nElo of a pair or two with almost no variance reads ±100,000): the
/// axis stops here rather than flatten every later point into a line.
const AXIS_LIMIT: f64 = 400.0;

/// The range cut to [`AXIS_LIMIT`] either side, and whether it was.
fn clip((lo, hi): (f64, f64)) -> (f64, f64, bool) {
    let clipped = lo < -AXIS_LIMIT || hi > AXIS_LIMIT;
    (lo.max(-AXIS_LIMIT), hi.min(AXIS_LIMIT), clipped)
}

/// The range widened to the SPRT's lines that lie near it (within the range's own
/// span); a line farther off would flatten the run into a line, so it stays off the
/// chart and its legend says so.
fn with_bounds(range: (f64, f64), bounds: Option<(f64, f64)>) -> (f64, f64) {
    let (mut lo, mut hi) = range;
    let span = (hi - lo).max(1.0);
    for b in bounds.map_or_else(Vec::new, |(a, b)| vec![a, b]) {
        if b.is_finite() && b >= range.0 - span && b <= range.1 + span {
            lo = lo.min(b);
            hi = hi.max(b);
        }
    }
    (lo, hi)
}

/// Elo after each pair: one line per pairing; a single pairing also gets its 95% band,
/// and with an SPRT its `elo0` and `elo1` lines.
#[must_use]
pub fn elo_chart(series: &[(String, &[Point])], axis: EloAxis) -> String {
    let all_max = max_pairs(series.iter().map(|s| s.1));
    let band = series.len() == 1;
    let (lo, hi, clipped) = clip(with_bounds(elo_range(series, axis, band), axis.bounds));
    let pad = 0.06 * (hi - lo).max(1.0);
    let names: Vec<&str> = series.iter().map(|s| s.0.as_str()).collect();
    let rows = legend_rows(&names, WIDE.0 - 88.0);
    let size = (WIDE.0, WIDE.1 + 20.0 * rows as f64);
    let frame = Frame::new(size, Some((0.0, all_max)), (lo - pad, hi + pad), rows);
    let unit = if axis.normalized { "nElo" } else { "Elo" };
    let mut svg = Svg::new(size.0, size.1, &format!("{unit} over pairs"));
    let title = match (band, axis.bounds.is_some()) {
        (true, true) => format!("{unit} with 95% interval and the SPRT's elo0 and elo1"),
        (true, false) => format!("{unit} with 95% interval"),
        _ => format!("{unit} of each pairing"),
    };
    // Said on the chart, so that a line leaving it is not read as the estimate's end.
    let title = if clipped {
        format!("{title} (axis clipped to \u{b1}{AXIS_LIMIT:.0}: the first pairs' intervals run off it)")
    } else {
        title
    };
    frame.draw_axes(&mut svg, &title, "pairs", unit);
    frame.clip(&mut svg, "elo-clip");
    let (l, r, _, _) = frame.area();
    svg.line(frame.at(0.0, 0.0), (r, frame.y.map(0.0)), MUTED, 1.0, "2 3");
    svg.raw("<g clip-path=\"url(#elo-clip)\">\n");
    for (i, (_, points)) in series.iter().enumerate() {
        let colour = PALETTE[i % PALETTE.len()];
        if band {
            let mut outline: Vec<(f64, f64)> = points
                .iter()
                .map(|p| frame.at(p.pairs as f64, axis.of(p).2))
                .collect();
            outline.extend(
                points
                    .iter()
                    .rev()
                    .map(|p| frame.at(p.pairs as f64, axis.of(p).1)),
            );
            svg.poly(
                &outline,
                true,
                &format!("fill=\"{colour}\" fill-opacity=\"0.15\" stroke=\"none\""),
            );
        }
        let line: Vec<(f64, f64)> = points
            .iter()
            .map(|p| frame.at(p.pairs as f64, axis.of(p).0))
            .collect();
        svg.poly(
            &line,
            false,
            &format!(
                "fill=\"none\" stroke=\"{colour}\" stroke-width=\"2\" stroke-linejoin=\"round\""
            ),
        );
    }
    svg.raw("</g>\n");
    if let Some((elo0, elo1)) = axis.bounds {
        let (_, _, top, bottom) = frame.area();
        // The legend at the top right, so no label sits on the lines or the band.
        let mut x = r;
        for (value, colour, name) in [(elo1, GREEN, "elo1"), (elo0, RED, "elo0")] {
            let y = frame.y.map(value);
            let off = if y < top {
                " (above the chart)"
            } else if y > bottom {
                " (below the chart)"
            } else {
                svg.line((l, y), (r, y), colour, 1.5, "6 4");
                ""
            };
            let text = format!("{name} = {value}{off}");
            svg.text((x, 20.0), "end", colour, "font-weight=\"600\"", &text);
            // About 7 px a character of bold 12 px text, a dash as the swatch, a gap.
            let width = 7.0 * text.chars().count() as f64;
            svg.line(
                (x - width - 26.0, 16.0),
                (x - width - 6.0, 16.0),
                colour,
                1.5,
                "6 4",
            );
            x -= width + 44.0;
        }
    }
    for (i, (_, points)) in series.iter().enumerate() {
        let colour = PALETTE[i % PALETTE.len()];
        if let Some(p) = points.last() {
            let (v, low, high) = axis.of(p);
            let (x, y) = frame.at(p.pairs as f64, v);
            svg.circle((x, y), 3.5, colour);
            if band {
                let text = format!("{v:.1} ± {:.1}", (high - low) / 2.0);
                let anchor = if x > r - 120.0 { "end" } else { "start" };
                let dx = if anchor == "end" { -8.0 } else { 8.0 };
                svg.text(
                    (x + dx, y - 8.0),
                    anchor,
                    colour,
                    "font-weight=\"600\"",
                    &text,
                );
            }
        }
    }
    legend(&mut svg, frame.left, WIDE.0 - 88.0, &names);
    svg.finish()
}

/// The pentanomial histogram: pairs per outcome, one bar per pairing in each group.
#[must_use]
pub fn penta_chart(groups: &[(String, Penta)]) -> String {
    const CATEGORIES: [&str; 5] = ["LL", "LD", "DD+WL", "WD", "WW"];
    let top = groups
        .iter()
        .flat_map(|g| g.1.to_array())
        .max()
        .unwrap_or(0)
        .max(4) as f64; // at least 0..4, so small counts get whole-number ticks
    let names: Vec<&str> = groups.iter().map(|g| g.0.as_str()).collect();
    let rows = legend_rows(&names, HALF.0 - 88.0);
    let size = (HALF.0, HALF.1 + 20.0 * rows as f64);
    let frame = Frame::new(size, None, (0.0, top), rows);
    let mut svg = Svg::new(size.0, size.1, "Pentanomial histogram");
    let title = if groups.len() == 1 {
        "Pairs by outcome"
    } else {
        "Pairs by outcome per pairing"
    };
    frame.draw_axes(
        &mut svg,
        title,
        "pair outcome (first engine's view)",
        "pairs",
    );
    let (l, r, _, b) = frame.area();
    let slot = (r - l) / CATEGORIES.len() as f64;
    let bar = (slot * 0.7) / groups.len().max(1) as f64;
    for (c, name) in CATEGORIES.iter().enumerate() {
        let x0 = l + slot * c as f64 + slot * 0.15;
        for (g, (_, penta)) in groups.iter().enumerate() {
            let value = penta.to_array()[c] as f64;
            let (x, y) = (x0 + bar * g as f64, frame.y.map(value));
            let colour = PALETTE[g % PALETTE.len()];
            svg.rect((x + 1.0, y), (bar - 2.0, b - y), colour, "rx=\"2\"");
            if groups.len() <= 3 {
                svg.text(
                    (x + bar / 2.0, y - 5.0),
                    "middle",
                    INK,
                    "",
                    &format!("{value}"),
                );
            }
        }
        svg.text(
            (l + slot * (c as f64 + 0.5), b + 18.0),
            "middle",
            INK,
            "font-weight=\"600\"",
            name,
        );
    }
    legend(&mut svg, l, HALF.0 - 88.0, &names);
    svg.finish()
}

/// The rating list: each engine's Elo as a dot with its 95% interval as a bar.
#[must_use]
pub fn rating_chart(ratings: &[RatingLine]) -> String {
    let mut rows: Vec<&RatingLine> = ratings.iter().collect();
    rows.sort_by(|a, b| b.elo.total_cmp(&a.elo));
    // As tall as the histogram beside it for up to seven engines.
    let row_h = (230.0 / rows.len().max(1) as f64).clamp(30.0, 60.0);
    let height = 70.0 + row_h * rows.len() as f64;
    let longest = rows
        .iter()
        .map(|r| r.name.chars().count())
        .max()
        .unwrap_or(4);
    let left = (7.0 * longest.min(24) as f64 + 20.0).max(60.0);
    let right = HALF.0 - 20.0;
    let finite = |v: f64| if v.is_finite() { v } else { 0.0 };
    let lo = rows
        .iter()
        .map(|r| finite(r.elo - r.ci95))
        .fold(0.0, f64::min);
    let hi = rows
        .iter()
        .map(|r| finite(r.elo + r.ci95))
        .fold(0.0, f64::max);
    let (ticks, step) = nice_ticks(lo, hi, 6);
    let domain = (
        ticks.first().copied().unwrap_or(lo),
        ticks.last().copied().unwrap_or(hi),
    );
    let x = Scale::new(domain, (left, right));
    let mut svg = Svg::new(HALF.0, height, "Ratings with 95% intervals");
    svg.text(
        (left, 20.0),
        "start",
        INK,
        "font-size=\"14\" font-weight=\"600\"",
        "Elo with 95% interval",
    );
    let (top, bottom) = (36.0, height - 34.0);
    for &t in &ticks {
        let px = x.map(t);
        let colour = if t == 0.0 { MUTED } else { "#e5e7eb" };
        svg.line(
            (px, top),
            (px, bottom),
            colour,
            1.0,
            if t == 0.0 { "2 3" } else { "" },
        );
        svg.text(
            (px, bottom + 16.0),
            "middle",
            MUTED,
            "",
            &tick_label(t, step),
        );
    }
    svg.text(
        ((left + right) / 2.0, height - 4.0),
        "middle",
        INK,
        "",
        "Elo (first engine = 0)",
    );
    for (i, r) in rows.iter().enumerate() {
        let y = top + row_h * (i as f64 + 0.5);
        let name: String = r.name.chars().take(24).collect();
        svg.text((left - 10.0, y + 4.0), "end", INK, "", &name);
        let colour = PALETTE[0];
        if r.ci95.is_finite() && r.ci95 > 0.0 {
            let (a, b) = (x.map(r.elo - r.ci95), x.map(r.elo + r.ci95));
            svg.line((a, y), (b, y), colour, 3.0, "");
            svg.line((a, y - 6.0), (a, y + 6.0), colour, 1.5, "");
            svg.line((b, y - 6.0), (b, y + 6.0), colour, 1.5, "");
        }
        svg.circle((x.map(r.elo), y), 5.0, colour);
        if r.ci95 == 0.0 {
            svg.text((x.map(r.elo) + 10.0, y + 4.0), "start", MUTED, "", "anchor");
        }
    }
    svg.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_degenerate_interval_is_clipped_and_the_chart_says_so() {
        assert_eq!(clip((-5.0, 12.0)), (-5.0, 12.0, false));
        assert_eq!(clip((-100_000.0, 3.0)), (-AXIS_LIMIT, 3.0, true));
        assert_eq!(clip((0.0, 1e9)), (0.0, AXIS_LIMIT, true));
    }
}
