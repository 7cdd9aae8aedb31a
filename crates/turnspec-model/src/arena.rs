//! Typed arenas: every element kind of a spec lives in an [`Arena`] and is
//! named by an index type that only this crate can create.
//!
//! Outside this crate an arena is read-only: an id is made only when an
//! element is added to a spec under construction ([`crate::SpecParts::add`])
//! or handed out by a spec (iteration, by-name lookups), so there is no way
//! to write one from a number or to fill a free-standing arena with
//! placeholders to reach one. An id a spec handed out is always in range
//! for that spec. An id of a *different* spec is a programming error that
//! never panics: [`Arena::get`] and the `Spec` accessors answer `None`, and
//! `Arena` has no panicking `Index` implementation.

use std::fmt;
use std::marker::PhantomData;

use crate::LimitError;

mod sealed {
    /// Only this crate can make ids out of numbers.
    pub trait Sealed: Sized {
        fn from_index(index: usize) -> Self;
    }
}

pub(crate) use sealed::Sealed;

/// An index type of the model (`PhaseId`, `StepId`, ...).
pub trait Id: Copy + Eq + Ord + fmt::Debug + Sealed {
    /// How many elements of this kind a spec may have: the width of the
    /// index type (or a smaller engine limit).
    const LIMIT: usize;
    /// What the elements are called in messages ("steps").
    const KIND: &'static str;
    /// The position of the element in its arena.
    fn index(self) -> usize;
}

/// An element with a designer-given id, for by-name lookups.
pub trait Named {
    /// The id the spec file gives the element.
    fn name_id(&self) -> &str;
}

/// A vector of `T` indexed by `I`.
#[derive(Clone, PartialEq, Eq)]
pub struct Arena<I, T> {
    items: Vec<T>,
    _id: PhantomData<fn() -> I>,
}

impl<I, T: fmt::Debug> fmt::Debug for Arena<I, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(&self.items).finish()
    }
}

impl<I, T> Default for Arena<I, T> {
    fn default() -> Self {
        Arena {
            items: Vec::new(),
            _id: PhantomData,
        }
    }
}

impl<I: Id, T> Arena<I, T> {
    /// Adds an element and returns its id, or an error once the arena
    /// holds as many elements as its index type can name.
    pub(crate) fn alloc(&mut self, item: T) -> Result<I, LimitError> {
        let id = self.next_id()?;
        self.items.push(item);
        Ok(id)
    }

    /// The id the next [`Arena::alloc`] will return.
    #[inline]
    pub(crate) fn next_id(&self) -> Result<I, LimitError> {
        if self.items.len() >= I::LIMIT {
            return Err(LimitError {
                what: I::KIND,
                limit: I::LIMIT,
                value: self.items.len() + 1,
            });
        }
        Ok(I::from_index(self.items.len()))
    }

    /// The element, or `None` for an id of another spec.
    #[inline]
    pub fn get(&self, id: I) -> Option<&T> {
        self.items.get(id.index())
    }

    /// The element, for the loader that fills the arena in.
    #[inline]
    pub(crate) fn get_mut(&mut self, id: I) -> Option<&mut T> {
        self.items.get_mut(id.index())
    }

    /// The id of the element at `index`, or `None` past the end: for
    /// decoders (a saved game) that read positions and must check each
    /// against the spec they load into. The id names an element of this
    /// arena, as every id does.
    #[inline]
    pub fn id_at(&self, index: usize) -> Option<I> {
        (index < self.items.len()).then(|| I::from_index(index))
    }

    /// Whether `id` names an element of this arena.
    #[inline]
    pub fn contains(&self, id: I) -> bool {
        id.index() < self.items.len()
    }

    /// How many elements there are.
    #[inline]
    pub fn len(&self) -> usize {
        self.items.len()
    }

    /// Whether there are none.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    /// The elements in definition order.
    #[inline]
    pub fn iter(&self) -> std::slice::Iter<'_, T> {
        self.items.iter()
    }

    /// The elements with their ids, in definition order.
    pub fn iter_ids(&self) -> impl DoubleEndedIterator<Item = (I, &T)> + ExactSizeIterator {
        self.items
            .iter()
            .enumerate()
            .map(|(i, t)| (I::from_index(i), t))
    }

    /// The ids in definition order.
    pub fn ids(&self) -> impl DoubleEndedIterator<Item = I> + ExactSizeIterator + use<I, T> {
        (0..self.items.len()).map(I::from_index)
    }

    /// The elements as a slice (position = `id.index()`).
    #[inline]
    pub fn as_slice(&self) -> &[T] {
        &self.items
    }
}

impl<I: Id, T: Named> Arena<I, T> {
    /// The element whose spec-file id is `name`.
    pub fn by_id(&self, name: &str) -> Option<I> {
        self.items
            .iter()
            .position(|t| t.name_id() == name)
            .map(I::from_index)
    }
}

impl<'a, I: Id, T> IntoIterator for &'a Arena<I, T> {
    type Item = &'a T;
    type IntoIter = std::slice::Iter<'a, T>;
    fn into_iter(self) -> Self::IntoIter {
        self.items.iter()
    }
}
