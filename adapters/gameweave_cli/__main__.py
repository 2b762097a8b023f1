"""``python -m gameweave_cli`` runs the ``gameweave`` command."""

from gameweave_cli.app import main

if __name__ == "__main__":
    main()
