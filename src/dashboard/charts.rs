//! The usage charts, drawn on the server as SVG by plotters: credits used per day as bars, and
//! deliveries per day as two lines (succeeded, failed).

use chrono::{DateTime, Utc};
use plotters::coord::Shift;
use plotters::coord::types::{RangedCoordi32, RangedCoordi64};
use plotters::prelude::*;

/// Size of every chart, in SVG user units (it scales to the page width).
const SIZE: (u32, u32) = (720, 260);
const BLUE: RGBColor = RGBColor(47, 91, 234);
const GREEN: RGBColor = RGBColor(17, 120, 74);
const RED: RGBColor = RGBColor(180, 35, 24);
const GREY: RGBColor = RGBColor(93, 102, 118);

/// One day of a chart: its UTC midnight and its values.
pub struct Day {
    pub day_ms: i64,
    pub values: Vec<i64>,
}

type Chart<'a, 'b> = ChartContext<'a, SVGBackend<'b>, Cartesian2d<RangedCoordi32, RangedCoordi64>>;

/// Credits used per day, as bars.
pub fn credits_chart(days: &[Day]) -> Result<String, String> {
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, SIZE).into_drawing_area();
        root.fill(&WHITE).map_err(text)?;
        let mut chart = frame(&root, days, max_of(days, 0))?;
        chart
            .draw_series(days.iter().enumerate().map(|(n, day)| {
                let x = n as i32;
                let y = day.values.first().copied().unwrap_or(0);
                let mut bar = Rectangle::new([(x, 0), (x + 1, y)], BLUE.filled());
                bar.set_margin(0, 0, 2, 2);
                bar
            }))
            .map_err(text)?
            .label("Credits used")
            .legend(|(x, y)| Rectangle::new([(x, y - 5), (x + 10, y + 5)], BLUE.filled()));
        legend(&mut chart)?;
        root.present().map_err(text)?;
    }
    Ok(svg)
}

/// Deliveries per day: succeeded (first value) and failed (second value), as lines.
pub fn deliveries_chart(days: &[Day]) -> Result<String, String> {
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, SIZE).into_drawing_area();
        root.fill(&WHITE).map_err(text)?;
        let top = max_of(days, 0).max(max_of(days, 1));
        let mut chart = frame(&root, days, top)?;
        for (index, name, color) in [(0, "Succeeded", GREEN), (1, "Failed", RED)] {
            let points = days
                .iter()
                .enumerate()
                .map(move |(n, day)| (n as i32, day.values.get(index).copied().unwrap_or(0)));
            chart
                .draw_series(LineSeries::new(points, color.stroke_width(2)))
                .map_err(text)?
                .label(name)
                .legend(move |(x, y)| {
                    PathElement::new([(x, y), (x + 14, y)], color.stroke_width(2))
                });
        }
        legend(&mut chart)?;
        root.present().map_err(text)?;
    }
    Ok(svg)
}

/// The axes: one slot per day (dated every week) and counts from zero.
fn frame<'a, 'b>(
    root: &'a DrawingArea<SVGBackend<'b>, Shift>,
    days: &[Day],
    top: i64,
) -> Result<Chart<'a, 'b>, String> {
    let top = (top + top / 10).max(5);
    let first = days.first().map_or(0, |d| d.day_ms);
    let mut chart = ChartBuilder::on(root)
        .margin(12)
        .margin_right(28)
        .x_label_area_size(28)
        .y_label_area_size(44)
        .build_cartesian_2d(0..days.len() as i32, 0..top)
        .map_err(text)?;
    let count = days.len() as i32;
    // A label names the day whose slot starts at it; the axis' end starts no day.
    let date_of = |n: &i32| {
        if *n >= count {
            return String::new();
        }
        DateTime::<Utc>::from_timestamp_millis(first + i64::from(*n) * 86_400_000)
            .map(|t| t.format("%b %d").to_string())
            .unwrap_or_default()
    };
    chart
        .configure_mesh()
        .disable_x_mesh()
        .light_line_style(RGBColor(236, 239, 243))
        .x_labels(6)
        .x_label_formatter(&date_of)
        .y_labels(6)
        .label_style(("sans-serif", 13).into_font().color(&GREY))
        .axis_style(RGBColor(197, 204, 216))
        .draw()
        .map_err(text)?;
    Ok(chart)
}

fn legend<'a, 'b: 'a>(chart: &mut Chart<'a, 'b>) -> Result<(), String> {
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperLeft)
        .background_style(WHITE.mix(0.9))
        .border_style(RGBColor(223, 227, 234))
        .label_font(("sans-serif", 13))
        .draw()
        .map_err(text)
}

fn max_of(days: &[Day], index: usize) -> i64 {
    days.iter()
        .filter_map(|d| d.values.get(index).copied())
        .max()
        .unwrap_or(0)
}

fn text(err: impl std::fmt::Display) -> String {
    err.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn days(values: &[[i64; 2]]) -> Vec<Day> {
        values
            .iter()
            .enumerate()
            .map(|(n, v)| Day {
                day_ms: 1_764_028_800_000 + n as i64 * 86_400_000,
                values: v.to_vec(),
            })
            .collect()
    }

    #[test]
    fn the_credits_chart_is_an_svg_with_one_bar_per_day_and_a_legend() {
        let svg = credits_chart(&days(&[[3, 0], [0, 0], [7, 0]])).unwrap();
        assert!(svg.starts_with("<svg"), "{svg}");
        assert!(svg.contains("Credits used"));
        assert!(svg.contains("Nov 25"), "dated x axis: {svg}");
        assert!(svg.matches("<rect").count() >= 3);
    }

    #[test]
    fn the_deliveries_chart_has_a_line_for_each_outcome() {
        let svg = deliveries_chart(&days(&[[1, 2], [4, 0]])).unwrap();
        assert!(svg.contains("Succeeded") && svg.contains("Failed"));
        assert!(svg.matches("<polyline").count() >= 2, "{svg}");
    }

    #[test]
    fn an_empty_month_still_draws_its_axes() {
        let svg = credits_chart(&days(&[[0, 0]; 30])).unwrap();
        assert!(svg.contains("</svg>"));
    }
}
