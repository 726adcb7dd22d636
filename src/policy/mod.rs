//! Policy: what a call may do, decided in one place before any process starts.

pub mod paths;
