from codehop.cli import main

main()
