from checks.core import check
