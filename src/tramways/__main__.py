import sys

from tramways.cli import main

sys.exit(main())
