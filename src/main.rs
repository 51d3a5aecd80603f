use clap::Parser;

fn main() -> anyhow::Result<()> {
    // One rustls crypto provider for the whole process, installed before any TLS use.
    let _ = rustls::crypto::aws_lc_rs::default_provider().install_default();
    let cli = signalwatch::cli::Cli::parse();
    signalwatch::cli::run(cli)
}
