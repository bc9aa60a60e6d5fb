//! `cargo run -p isa-codegen [-- --check] [GENERATION...]`: regenerates every crate from
//! the header trees under `headers/` and reports what changed.

use std::path::PathBuf;
use std::process::ExitCode;

const USAGE: &str =
    "usage: isa-codegen [--check] [--strict] [--root DIR] [--headers DIR] [--vendor-root DIR] [GENERATION...]

Regenerates isa-<generation>/ from headers/neuron_<generation>_arch_isa/ and prints a report.
  --check            change nothing; exit 1 when a committed crate is stale
  --strict           every warning is an error (exit 2, nothing written)
  --root DIR         the workspace (default: the repository this tool was built in)
  --headers DIR      the directory of header trees (default: ROOT/headers)
  --vendor-root DIR  regenerate from an installed vendor package: DIR holds
                     neuron_<generation>_arch_isa/{common,tpb}/. Its trees, with the project's
                     rng-runtime.json, replace those in the headers directory; the report shows
                     what changes (with --check nothing is written)
  GENERATION         limit to these generations (sunda, cayman, ...)";

struct Args {
    check: bool,
    strict: bool,
    vendor_root: Option<PathBuf>,
    root: PathBuf,
    headers: Option<PathBuf>,
    only: Vec<String>,
}

fn parse_args() -> Result<Args, String> {
    let mut args = Args {
        check: false,
        strict: false,
        vendor_root: None,
        root: PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/..")),
        headers: None,
        only: Vec::new(),
    };
    let mut it = std::env::args().skip(1);
    while let Some(a) = it.next() {
        match a.as_str() {
            "--check" => args.check = true,
            "--strict" => args.strict = true,
            "--vendor-root" => {
                args.vendor_root = Some(PathBuf::from(
                    it.next().ok_or("--vendor-root needs a directory")?,
                ))
            }
            "--root" => args.root = PathBuf::from(it.next().ok_or("--root needs a directory")?),
            "--headers" => {
                args.headers = Some(PathBuf::from(
                    it.next().ok_or("--headers needs a directory")?,
                ))
            }
            "-h" | "--help" => return Err(String::new()),
            s if s.starts_with('-') => return Err(format!("unknown option `{s}`")),
            s => args.only.push(s.to_ascii_lowercase()),
        }
    }
    Ok(args)
}

fn main() -> ExitCode {
    let args = match parse_args() {
        Ok(a) => a,
        Err(e) if e.is_empty() => {
            println!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            eprintln!("isa-codegen: {e}\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    let headers = args
        .headers
        .clone()
        .unwrap_or_else(|| args.root.join("headers"));
    let options = isa_codegen::Options {
        strict: args.strict,
    };
    if let Some(vendor) = &args.vendor_root {
        return vendor_run(&args, &headers, vendor, &options);
    }
    let run = match isa_codegen::workspace::plan(&args.root, &headers, &args.only, &options) {
        Ok(r) => r,
        Err(errors) => {
            for e in errors {
                eprintln!("{e}");
            }
            eprintln!("isa-codegen: nothing was written");
            return ExitCode::from(2);
        }
    };
    if run.plans.is_empty() && run.missing.is_empty() {
        eprintln!(
            "isa-codegen: no neuron_<gen>_arch_isa tree under {}",
            headers.display()
        );
        return ExitCode::from(2);
    }
    let mut stale = false;
    for plan in &run.plans {
        print!("{}", plan.report(args.check));
        if !plan.is_fresh() {
            stale = true;
            if !args.check {
                if let Err(e) = plan.write() {
                    eprintln!("isa-codegen: writing {}: {e}", plan.crate_dir.display());
                    return ExitCode::from(2);
                }
            }
        }
    }
    for m in &run.missing {
        print!("{}", m.report());
    }
    if let Some(line) = isa_codegen::workspace::release_line(&run.plans) {
        print!("{line}");
    }
    if args.check && stale {
        eprintln!("isa-codegen --check: committed code is stale; run `cargo run -p isa-codegen`");
        return ExitCode::FAILURE;
    }
    ExitCode::SUCCESS
}

/// `--vendor-root DIR`: regenerate from the vendor's trees (staged with our rng-runtime.json),
/// print the report, then write the crates and make `headers/` hold the vendor trees.
fn vendor_run(
    args: &Args,
    headers: &std::path::Path,
    vendor: &std::path::Path,
    options: &isa_codegen::Options,
) -> ExitCode {
    let run =
        match isa_codegen::workspace::plan_vendor(&args.root, headers, vendor, &args.only, options)
        {
            Ok(r) => r,
            Err(errors) => {
                for e in errors {
                    eprintln!("{e}");
                }
                eprintln!("isa-codegen: nothing was written");
                return ExitCode::from(2);
            }
        };
    if run.run.plans.is_empty() && run.run.missing.is_empty() {
        eprintln!(
            "isa-codegen: no neuron_<gen>_arch_isa tree under {}",
            vendor.display()
        );
        return ExitCode::from(2);
    }
    print!("{}", run.report(args.check));
    if args.check {
        if run.is_fresh() {
            return ExitCode::SUCCESS;
        }
        eprintln!("isa-codegen --check --vendor-root: the crates or headers/ differ from the vendor trees; run it without --check");
        return ExitCode::FAILURE;
    }
    if let Err(e) = run.write() {
        eprintln!("isa-codegen: writing: {e}");
        return ExitCode::from(2);
    }
    ExitCode::SUCCESS
}
