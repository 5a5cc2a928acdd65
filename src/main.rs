fn main() -> std::process::ExitCode {
    dreamwatch::app::main()
}
