//! Input: keys and mouse events become [`action::Action`]s through the [`keymap::Keymap`].

pub mod action;
pub mod commands;
pub mod hints;
pub mod keymap;
pub mod keys;
