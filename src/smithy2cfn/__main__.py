"""``python -m smithy2cfn`` runs the command line."""

from smithy2cfn.cli import run

if __name__ == "__main__":  # pragma: no cover
    run()
