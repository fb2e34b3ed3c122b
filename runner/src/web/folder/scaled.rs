//! A scaling run's folder as one page: the scaling report (Elo and nElo against the
//! setting, the table of settings) made from its points' summaries now, each point's
//! link leading to its run page here rather than its `report.html` file.

use std::path::Path;

use super::super::error::WebError;
use super::super::shell::live;
use super::{api_href_group, href};
use crate::scaling::folder::StoredPlan;
use crate::scaling::results::{collect, Results};

/// The results of the scaling run in `dir`, as its points stand.
///
/// # Errors
/// [`WebError::Failed`] when its plan does not read here.
pub(crate) fn results(dir: &Path) -> Result<Results, WebError> {
    let failed = |e: crate::scaling::folder::ScalingError| WebError::Failed(e.to_string());
    let plan = StoredPlan::read(dir).map_err(failed)?;
    Ok(collect(&plan.restore(dir, &[]).map_err(failed)?))
}

/// The page of the scaling run at `id`, in `dir`.
///
/// # Errors
/// As [`results`].
pub(crate) fn page_of(id: &str, dir: &Path) -> Result<String, WebError> {
    let results = results(dir)?;
    let mut report = crate::scaling::report::page(&results);
    for row in &results.points {
        let file = format!(
            "href=\"{}/report.html\"",
            crate::output::report::escape(&row.dir)
        );
        let page = format!(
            "href=\"{}\"",
            crate::output::report::escape(&href(&format!("{id}/{}", row.dir)))
        );
        report = report.replace(&file, &page);
    }
    Ok(live(report, &api_href_group(id), ""))
}
