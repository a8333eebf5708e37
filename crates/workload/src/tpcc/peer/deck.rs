//! tpcc-mysql's mix: one deck of 23 cards (10 New-Order, 10 Payment, one each of the others)
//! shared by every client, shuffled at the start and each time all 23 are dealt, so every 23
//! transactions of the run, whoever runs them, are exactly that mix.

use super::super::txn::Txn;
use dbpress_core::rand::Rng;
use std::sync::Mutex;

pub struct SharedDeck {
    inner: Mutex<(Vec<Txn>, usize, Rng)>,
}

impl SharedDeck {
    pub fn new(seed: u64) -> SharedDeck {
        let mut cards = Vec::with_capacity(23);
        cards.extend([Txn::NewOrder; 10]);
        cards.extend([Txn::Payment; 10]);
        cards.extend([Txn::OrderStatus, Txn::Delivery, Txn::StockLevel]);
        let len = cards.len();
        SharedDeck {
            inner: Mutex::new((cards, len, Rng::new(seed, 0x7c_c5))),
        }
    }

    /// The next card, the deck shuffled (Fisher–Yates) when all were dealt.
    pub fn deal(&self) -> Txn {
        let mut g = self.inner.lock().unwrap_or_else(|p| p.into_inner());
        let (cards, next, rng) = &mut *g;
        if *next == cards.len() {
            for i in (1..cards.len()).rev() {
                let j = rng.uniform(0, i as u32) as usize;
                cards.swap(i, j);
            }
            *next = 0;
        }
        *next += 1;
        cards[*next - 1]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_23_cards_are_the_mix() {
        let d = SharedDeck::new(7);
        for _ in 0..3 {
            let mut n = [0; 5];
            for _ in 0..23 {
                n[d.deal() as usize] += 1;
            }
            assert_eq!(n, [10, 10, 1, 1, 1]);
        }
    }
}
