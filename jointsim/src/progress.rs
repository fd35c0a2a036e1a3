//! A progress bar on standard error, shown only when it is a terminal and the run takes more
//! than a moment.

use std::io::IsTerminal;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressStyle};
use joint_runtime::simulation::Progress;

const RESOLUTION: u64 = 1000;
const DELAY: Duration = Duration::from_millis(300);

pub struct Bar {
    enabled: bool,
    started: Instant,
    bar: Option<ProgressBar>,
}

impl Bar {
    pub fn new(wanted: bool) -> Self {
        Bar {
            enabled: wanted && std::io::stderr().is_terminal(),
            started: Instant::now(),
            bar: None,
        }
    }

    pub fn update(&mut self, p: Progress) {
        if !self.enabled {
            return;
        }
        if self.bar.is_none() {
            if self.started.elapsed() < DELAY {
                return;
            }
            let bar = ProgressBar::new(RESOLUTION);
            bar.set_style(
                ProgressStyle::with_template("{bar:40} t = {msg} [{elapsed_precise}, ETA {eta}]")
                    .unwrap_or_else(|_| ProgressStyle::default_bar()),
            );
            self.bar = Some(bar);
        }
        if let Some(bar) = &self.bar {
            let span = (p.end_time - p.start_time).max(f64::MIN_POSITIVE);
            let fraction = ((p.time - p.start_time) / span).clamp(0.0, 1.0);
            bar.set_position((fraction * RESOLUTION as f64) as u64);
            bar.set_message(format!("{:.6} / {}", p.time, p.end_time));
        }
    }

    pub fn finish(&mut self) {
        if let Some(bar) = self.bar.take() {
            bar.finish_and_clear();
        }
    }
}

/// A count of finished runs for `jointsim sweep`, on standard error when it is a terminal;
/// shared by the worker threads.
pub struct Counter {
    bar: Option<ProgressBar>,
}

impl Counter {
    pub fn new(wanted: bool, total: usize) -> Self {
        let bar = (wanted && std::io::stderr().is_terminal()).then(|| {
            let bar = ProgressBar::new(total as u64);
            bar.set_style(
                ProgressStyle::with_template(
                    "{bar:40} {pos}/{len} runs [{elapsed_precise}, ETA {eta}]",
                )
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
            );
            bar
        });
        Counter { bar }
    }

    pub fn inc(&self) {
        if let Some(bar) = &self.bar {
            bar.inc(1);
        }
    }

    pub fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}
