//! Ctrl-C and SIGTERM as a cancel flag, for the commands that save their
//! state before they end (`prove --checkpoint`). A second Ctrl-C ends the
//! process at once, as it would without the flag.

use std::sync::atomic::AtomicBool;
use std::sync::{Arc, OnceLock};

use signal_hook::consts::{SIGINT, SIGTERM};

use crate::error::{CliError, CliResult};

static STOP: OnceLock<Arc<AtomicBool>> = OnceLock::new();

/// The flag Ctrl-C and SIGTERM set, registered on first use.
pub fn stop_flag() -> CliResult<&'static AtomicBool> {
    if let Some(flag) = STOP.get() {
        return Ok(flag);
    }
    let flag = Arc::new(AtomicBool::new(false));
    let cannot = |e: std::io::Error| CliError::Input(format!("cannot catch Ctrl-C: {e}"));
    for signal in [SIGINT, SIGTERM] {
        // Once the flag is set, the same signal again ends the process.
        signal_hook::flag::register_conditional_shutdown(signal, 130, Arc::clone(&flag))
            .map_err(cannot)?;
        signal_hook::flag::register(signal, Arc::clone(&flag)).map_err(cannot)?;
    }
    Ok(STOP.get_or_init(|| flag))
}
