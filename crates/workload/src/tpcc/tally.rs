//! What a terminal counts besides latency, for the audit figures of clause 5.5.1.5 and the
//! retry counts: kept per terminal without locks, summed into the workload's when the terminal
//! ends.

/// Counts over the measured time.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Completed transactions per type (New-Order's rolled-back 1% included).
    pub completed: [u64; 5],
    /// Attempts that hit a deadlock, lock wait timeout or serialization failure and were
    /// tried again, per type.
    pub retries: [u64; 5],
    /// Transactions that failed after --max-tries attempts, per type.
    pub failed: [u64; 5],
    pub new_order_lines: u64,
    pub new_order_remote_lines: u64,
    pub new_order_rollbacks: u64,
    pub payment_remote: u64,
    pub payment_by_name: u64,
    pub order_status_by_name: u64,
    pub delivery_skipped: u64,
}

impl Tally {
    pub fn add(&mut self, o: &Tally) {
        for i in 0..5 {
            self.completed[i] += o.completed[i];
            self.retries[i] += o.retries[i];
            self.failed[i] += o.failed[i];
        }
        self.new_order_lines += o.new_order_lines;
        self.new_order_remote_lines += o.new_order_remote_lines;
        self.new_order_rollbacks += o.new_order_rollbacks;
        self.payment_remote += o.payment_remote;
        self.payment_by_name += o.payment_by_name;
        self.order_status_by_name += o.order_status_by_name;
        self.delivery_skipped += o.delivery_skipped;
    }
}
