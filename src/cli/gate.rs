//! At most N CLI processes at once; the rest wait in the order they came.
//! Every process the core starts passes here, so 1 000 calls from a plugin or
//! a model start at most N processes (each with its own output buffers).
//! Single-threaded, like everything in the core: wasm has one JS thread.

use std::cell::RefCell;
use std::collections::{HashMap, VecDeque};
use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll, Waker};

#[derive(Default)]
struct GateState {
    running: usize,
    /// Tickets waiting for a slot, oldest first.
    queue: VecDeque<u64>,
    wakers: HashMap<u64, Waker>,
    next_ticket: u64,
}

#[derive(Default)]
pub struct ProcessGate {
    state: RefCell<GateState>,
}

impl ProcessGate {
    /// Waits for a slot among `max` (at least 1). The slot is held until the
    /// returned permit is dropped.
    pub fn acquire(&self, max: usize) -> Acquire<'_> {
        let mut state = self.state.borrow_mut();
        let ticket = state.next_ticket;
        state.next_ticket += 1;
        state.queue.push_back(ticket);
        Acquire {
            gate: self,
            ticket,
            max: max.max(1),
            done: false,
        }
    }

    /// Processes running now (tests, the settings tab).
    pub fn running(&self) -> usize {
        self.state.borrow().running
    }

    /// Calls waiting for a slot.
    pub fn waiting(&self) -> usize {
        self.state.borrow().queue.len()
    }

    fn wake_front(state: &mut GateState) {
        if let Some(front) = state.queue.front() {
            if let Some(waker) = state.wakers.remove(front) {
                waker.wake();
            }
        }
    }
}

pub struct Acquire<'g> {
    gate: &'g ProcessGate,
    ticket: u64,
    max: usize,
    done: bool,
}

impl<'g> Future for Acquire<'g> {
    type Output = Permit<'g>;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Permit<'g>> {
        let gate = self.gate;
        let mut state = gate.state.borrow_mut();
        if state.queue.front() == Some(&self.ticket) && state.running < self.max {
            state.queue.pop_front();
            state.wakers.remove(&self.ticket);
            state.running += 1;
            // Another slot may be free for the next in line.
            if state.running < self.max {
                ProcessGate::wake_front(&mut state);
            }
            drop(state);
            self.done = true;
            return Poll::Ready(Permit { gate });
        }
        state.wakers.insert(self.ticket, cx.waker().clone());
        Poll::Pending
    }
}

impl Drop for Acquire<'_> {
    /// A call cancelled while it waited leaves the queue.
    fn drop(&mut self) {
        if self.done {
            return;
        }
        let mut state = self.gate.state.borrow_mut();
        let was_front = state.queue.front() == Some(&self.ticket);
        state.queue.retain(|t| *t != self.ticket);
        state.wakers.remove(&self.ticket);
        if was_front {
            ProcessGate::wake_front(&mut state);
        }
    }
}

/// A held slot; dropping it lets the next call in line start.
pub struct Permit<'g> {
    gate: &'g ProcessGate,
}

impl Drop for Permit<'_> {
    fn drop(&mut self) {
        let mut state = self.gate.state.borrow_mut();
        state.running = state.running.saturating_sub(1);
        ProcessGate::wake_front(&mut state);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Arc;
    use std::task::Wake;

    struct CountingWaker(AtomicUsize);
    impl Wake for CountingWaker {
        fn wake(self: Arc<Self>) {
            self.0.fetch_add(1, Ordering::SeqCst);
        }
    }

    fn poll<'g>(acquire: &mut Pin<Box<Acquire<'g>>>, waker: &Waker) -> Option<Permit<'g>> {
        match acquire.as_mut().poll(&mut Context::from_waker(waker)) {
            Poll::Ready(permit) => Some(permit),
            Poll::Pending => None,
        }
    }

    #[test]
    fn at_most_max_run_and_the_rest_go_in_order() {
        let gate = ProcessGate::default();
        let counter = Arc::new(CountingWaker(AtomicUsize::new(0)));
        let waker = Waker::from(counter.clone());
        let mut calls: Vec<_> = (0..5).map(|_| Box::pin(gate.acquire(2))).collect();
        let mut permits: Vec<Option<Permit>> = calls.iter_mut().map(|c| poll(c, &waker)).collect();
        assert_eq!(
            permits.iter().map(Option::is_some).collect::<Vec<_>>(),
            [true, true, false, false, false]
        );
        assert_eq!((gate.running(), gate.waiting()), (2, 3));
        // The fourth cannot jump the queue even if polled first.
        assert!(poll(&mut calls[3], &waker).is_none());
        let wakes = counter.0.load(Ordering::SeqCst);
        permits[0] = None; // the first process ends
        assert!(
            counter.0.load(Ordering::SeqCst) > wakes,
            "the next in line was woken"
        );
        assert!(poll(&mut calls[3], &waker).is_none(), "not its turn");
        permits[2] = poll(&mut calls[2], &waker);
        assert!(permits[2].is_some());
        assert_eq!((gate.running(), gate.waiting()), (2, 2));
    }

    #[test]
    fn a_cancelled_waiter_leaves_the_queue() {
        let gate = ProcessGate::default();
        let waker = Waker::from(Arc::new(CountingWaker(AtomicUsize::new(0))));
        let mut first = Box::pin(gate.acquire(1));
        let held = poll(&mut first, &waker);
        let mut second = Box::pin(gate.acquire(1));
        let mut third = Box::pin(gate.acquire(1));
        assert!(poll(&mut second, &waker).is_none());
        assert!(poll(&mut third, &waker).is_none());
        drop(second); // Stop pressed while it waited
        drop(held);
        assert!(poll(&mut third, &waker).is_some());
        assert_eq!(gate.waiting(), 0);
    }
}
