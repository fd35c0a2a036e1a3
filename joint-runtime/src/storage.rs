//! How much memory a run's stored results may take: the default limit and how sizes are
//! printed in the messages that refuse absurd sizes (solution files, sensors, motions,
//! matrices).

/// The storage limit when none is set: half of the physical memory (`/proc/meminfo`), or 4 GiB
/// where that cannot be read.
pub fn default_storage_limit() -> usize {
    static LIMIT: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    *LIMIT.get_or_init(|| {
        let total_kib = std::fs::read_to_string("/proc/meminfo").ok().and_then(|m| {
            m.lines()
                .find(|l| l.starts_with("MemTotal:"))
                .and_then(|l| l.split_whitespace().nth(1)?.parse::<usize>().ok())
        });
        match total_kib {
            Some(kib) => kib.saturating_mul(1024) / 2,
            None => 4 << 30,
        }
    })
}

/// `bytes` as "12.3 GiB".
pub fn human_bytes(bytes: f64) -> String {
    const UNITS: [&str; 6] = ["bytes", "KiB", "MiB", "GiB", "TiB", "PiB"];
    let mut x = bytes;
    let mut unit = 0;
    while x >= 1024.0 && unit + 1 < UNITS.len() {
        x /= 1024.0;
        unit += 1;
    }
    if unit == 0 {
        format!("{bytes:.0} bytes")
    } else {
        format!("{x:.1} {}", UNITS[unit])
    }
}
