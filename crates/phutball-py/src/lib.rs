//! Python bindings (to come).
