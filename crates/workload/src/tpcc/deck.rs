//! The card deck of clause 5.2.4.2: 23 cards (10 New-Order, 10 Payment, one each of the other
//! three), reshuffled on every pass, one deck per terminal: 43.48% New-Order and Payment,
//! 4.35% each of the others.

use super::txn::Txn;
use dbpress_core::rand::Rng;

pub struct Deck {
    cards: [Txn; 23],
    next: usize,
}

impl Default for Deck {
    fn default() -> Self {
        Self::new()
    }
}

impl Deck {
    pub fn new() -> Deck {
        let mut cards = [Txn::NewOrder; 23];
        for c in cards.iter_mut().skip(10).take(10) {
            *c = Txn::Payment;
        }
        cards[20] = Txn::OrderStatus;
        cards[21] = Txn::Delivery;
        cards[22] = Txn::StockLevel;
        Deck { cards, next: 23 }
    }

    pub fn draw(&mut self, rng: &mut Rng) -> Txn {
        if self.next == self.cards.len() {
            for i in (1..self.cards.len()).rev() {
                let j = rng.uniform(0, i as u32) as usize;
                self.cards.swap(i, j);
            }
            self.next = 0;
        }
        self.next += 1;
        self.cards[self.next - 1]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_pass_deals_the_whole_deck() {
        let mut deck = Deck::new();
        let mut rng = Rng::new(1, 1);
        for _ in 0..5 {
            let mut counts = [0; 5];
            for _ in 0..23 {
                counts[deck.draw(&mut rng) as usize] += 1;
            }
            assert_eq!(counts, [10, 10, 1, 1, 1]);
        }
    }
}
