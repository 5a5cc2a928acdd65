//! Operator control of a creature's runner, shared by the observatory and the runner.
//!
//! - [`protocol`]: the commands ([`ControlCommand`]) and their wire format on the control
//!   socket, one JSON line each way.
//! - [`client`]: sending a command to a runner in another process over its socket.
//! - [`hosted`]: the handle on a creature hosted in-process ([`HostedCreature`]): its
//!   command channel, its status ([`HostStatus`]) and the cycle constants it lives by.
//!
//! The socket server lives in the runner (`runner::socket`), speaking [`protocol`].

pub mod client;
pub mod hosted;
pub mod protocol;

pub use client::{ControlError, send_command, socket_path, token_path};
pub use hosted::{ControlRequest, ControlSender, HostStatus, HostedCreature, RunnerStopped};
pub use protocol::{Answer, ControlCommand, Reply};
