"""Default settings: every name a project may override, one assignment each."""

# Setting number 1 of the defaults; a project overrides it in its own module.
OPTION_001 = 1
# Setting number 2 of the defaults; a project overrides it in its own module.
OPTION_002 = 2
# Setting number 3 of the defaults; a project overrides it in its own module.
OPTION_003 = 3
# Setting number 4 of the defaults; a project overrides it in its own module.
OPTION_004 = 4
# Setting number 5 of the defaults; a project overrides it in its own module.
OPTION_005 = 5
# Setting number 6 of the defaults; a project overrides it in its own module.
OPTION_006 = 6
# Setting number 7 of the defaults; a project overrides it in its own module.
OPTION_007 = 7
# Setting number 8 of the defaults; a project overrides it in its own module.
OPTION_008 = 8
# Setting number 9 of the defaults; a project overrides it in its own module.
OPTION_009 = 9
# Setting number 10 of the defaults; a project overrides it in its own module.
OPTION_010 = 10
# Setting number 11 of the defaults; a project overrides it in its own module.
OPTION_011 = 11
# Setting number 12 of the defaults; a project overrides it in its own module.
OPTION_012 = 12
# Setting number 13 of the defaults; a project overrides it in its own module.
OPTION_013 = 13
# Setting number 14 of the defaults; a project overrides it in its own module.
OPTION_014 = 14
# Setting number 15 of the defaults; a project overrides it in its own module.
OPTION_015 = 15
# Setting number 16 of the defaults; a project overrides it in its own module.
OPTION_016 = 16
# Setting number 17 of the defaults; a project overrides it in its own module.
OPTION_017 = 17
# Setting number 18 of the defaults; a project overrides it in its own module.
OPTION_018 = 18
# Setting number 19 of the defaults; a project overrides it in its own module.
OPTION_019 = 19
# Setting number 20 of the defaults; a project overrides it in its own module.
OPTION_020 = 20
# Setting number 21 of the defaults; a project overrides it in its own module.
OPTION_021 = 21
# Setting number 22 of the defaults; a project overrides it in its own module.
OPTION_022 = 22
# Setting number 23 of the defaults; a project overrides it in its own module.
OPTION_023 = 23
# Setting number 24 of the defaults; a project overrides it in its own module.
OPTION_024 = 24
# Setting number 25 of the defaults; a project overrides it in its own module.
OPTION_025 = 25
# Setting number 26 of the defaults; a project overrides it in its own module.
OPTION_026 = 26
# Setting number 27 of the defaults; a project overrides it in its own module.
OPTION_027 = 27
# Setting number 28 of the defaults; a project overrides it in its own module.
OPTION_028 = 28
# Setting number 29 of the defaults; a project overrides it in its own module.
OPTION_029 = 29
# Setting number 30 of the defaults; a project overrides it in its own module.
OPTION_030 = 30
# Setting number 31 of the defaults; a project overrides it in its own module.
OPTION_031 = 31
# Setting number 32 of the defaults; a project overrides it in its own module.
OPTION_032 = 32
# Setting number 33 of the defaults; a project overrides it in its own module.
OPTION_033 = 33
# Setting number 34 of the defaults; a project overrides it in its own module.
OPTION_034 = 34
# Setting number 35 of the defaults; a project overrides it in its own module.
OPTION_035 = 35
# Setting number 36 of the defaults; a project overrides it in its own module.
OPTION_036 = 36
# Setting number 37 of the defaults; a project overrides it in its own module.
OPTION_037 = 37
# Setting number 38 of the defaults; a project overrides it in its own module.
OPTION_038 = 38
# Setting number 39 of the defaults; a project overrides it in its own module.
OPTION_039 = 39
# Setting number 40 of the defaults; a project overrides it in its own module.
OPTION_040 = 40
# Setting number 41 of the defaults; a project overrides it in its own module.
OPTION_041 = 41
# Setting number 42 of the defaults; a project overrides it in its own module.
OPTION_042 = 42
# Setting number 43 of the defaults; a project overrides it in its own module.
OPTION_043 = 43
# Setting number 44 of the defaults; a project overrides it in its own module.
OPTION_044 = 44
# Setting number 45 of the defaults; a project overrides it in its own module.
OPTION_045 = 45
# Setting number 46 of the defaults; a project overrides it in its own module.
OPTION_046 = 46
# Setting number 47 of the defaults; a project overrides it in its own module.
OPTION_047 = 47
# Setting number 48 of the defaults; a project overrides it in its own module.
OPTION_048 = 48
# Setting number 49 of the defaults; a project overrides it in its own module.
OPTION_049 = 49
# Setting number 50 of the defaults; a project overrides it in its own module.
OPTION_050 = 50
# Setting number 51 of the defaults; a project overrides it in its own module.
OPTION_051 = 51
# Setting number 52 of the defaults; a project overrides it in its own module.
OPTION_052 = 52
# Setting number 53 of the defaults; a project overrides it in its own module.
OPTION_053 = 53
# Setting number 54 of the defaults; a project overrides it in its own module.
OPTION_054 = 54
# Setting number 55 of the defaults; a project overrides it in its own module.
OPTION_055 = 55
# Setting number 56 of the defaults; a project overrides it in its own module.
OPTION_056 = 56
# Setting number 57 of the defaults; a project overrides it in its own module.
OPTION_057 = 57
# Setting number 58 of the defaults; a project overrides it in its own module.
OPTION_058 = 58
# Setting number 59 of the defaults; a project overrides it in its own module.
OPTION_059 = 59
# Setting number 60 of the defaults; a project overrides it in its own module.
OPTION_060 = 60
# Setting number 61 of the defaults; a project overrides it in its own module.
OPTION_061 = 61
# Setting number 62 of the defaults; a project overrides it in its own module.
OPTION_062 = 62
# Setting number 63 of the defaults; a project overrides it in its own module.
OPTION_063 = 63
# Setting number 64 of the defaults; a project overrides it in its own module.
OPTION_064 = 64
# Setting number 65 of the defaults; a project overrides it in its own module.
OPTION_065 = 65
# Setting number 66 of the defaults; a project overrides it in its own module.
OPTION_066 = 66
# Setting number 67 of the defaults; a project overrides it in its own module.
OPTION_067 = 67
# Setting number 68 of the defaults; a project overrides it in its own module.
OPTION_068 = 68
# Setting number 69 of the defaults; a project overrides it in its own module.
OPTION_069 = 69
# Setting number 70 of the defaults; a project overrides it in its own module.
OPTION_070 = 70
# Setting number 71 of the defaults; a project overrides it in its own module.
OPTION_071 = 71
# Setting number 72 of the defaults; a project overrides it in its own module.
OPTION_072 = 72
# Setting number 73 of the defaults; a project overrides it in its own module.
OPTION_073 = 73
# Setting number 74 of the defaults; a project overrides it in its own module.
OPTION_074 = 74
# Setting number 75 of the defaults; a project overrides it in its own module.
OPTION_075 = 75
# Setting number 76 of the defaults; a project overrides it in its own module.
OPTION_076 = 76
# Setting number 77 of the defaults; a project overrides it in its own module.
OPTION_077 = 77
# Setting number 78 of the defaults; a project overrides it in its own module.
OPTION_078 = 78
# Setting number 79 of the defaults; a project overrides it in its own module.
OPTION_079 = 79
# Setting number 80 of the defaults; a project overrides it in its own module.
OPTION_080 = 80
# Setting number 81 of the defaults; a project overrides it in its own module.
OPTION_081 = 81
# Setting number 82 of the defaults; a project overrides it in its own module.
OPTION_082 = 82
# Setting number 83 of the defaults; a project overrides it in its own module.
OPTION_083 = 83
# Setting number 84 of the defaults; a project overrides it in its own module.
OPTION_084 = 84
# Setting number 85 of the defaults; a project overrides it in its own module.
OPTION_085 = 85
# Setting number 86 of the defaults; a project overrides it in its own module.
OPTION_086 = 86
# Setting number 87 of the defaults; a project overrides it in its own module.
OPTION_087 = 87
# Setting number 88 of the defaults; a project overrides it in its own module.
OPTION_088 = 88
# Setting number 89 of the defaults; a project overrides it in its own module.
OPTION_089 = 89
# Setting number 90 of the defaults; a project overrides it in its own module.
OPTION_090 = 90
# Setting number 91 of the defaults; a project overrides it in its own module.
OPTION_091 = 91
# Setting number 92 of the defaults; a project overrides it in its own module.
OPTION_092 = 92
# Setting number 93 of the defaults; a project overrides it in its own module.
OPTION_093 = 93
# Setting number 94 of the defaults; a project overrides it in its own module.
OPTION_094 = 94
# Setting number 95 of the defaults; a project overrides it in its own module.
OPTION_095 = 95
# Setting number 96 of the defaults; a project overrides it in its own module.
OPTION_096 = 96
# Setting number 97 of the defaults; a project overrides it in its own module.
OPTION_097 = 97
# Setting number 98 of the defaults; a project overrides it in its own module.
OPTION_098 = 98
# Setting number 99 of the defaults; a project overrides it in its own module.
OPTION_099 = 99
# Setting number 100 of the defaults; a project overrides it in its own module.
OPTION_100 = 100
# Seconds a mail server may take before sending gives up; None waits forever.
EMAIL_TIMEOUT = None
# Setting number 101 of the defaults; a project overrides it in its own module.
OPTION_101 = 101
# Setting number 102 of the defaults; a project overrides it in its own module.
OPTION_102 = 102
# Setting number 103 of the defaults; a project overrides it in its own module.
OPTION_103 = 103
# Setting number 104 of the defaults; a project overrides it in its own module.
OPTION_104 = 104
# Setting number 105 of the defaults; a project overrides it in its own module.
OPTION_105 = 105
# Setting number 106 of the defaults; a project overrides it in its own module.
OPTION_106 = 106
# Setting number 107 of the defaults; a project overrides it in its own module.
OPTION_107 = 107
# Setting number 108 of the defaults; a project overrides it in its own module.
OPTION_108 = 108
# Setting number 109 of the defaults; a project overrides it in its own module.
OPTION_109 = 109
# Setting number 110 of the defaults; a project overrides it in its own module.
OPTION_110 = 110
# Setting number 111 of the defaults; a project overrides it in its own module.
OPTION_111 = 111
# Setting number 112 of the defaults; a project overrides it in its own module.
OPTION_112 = 112
# Setting number 113 of the defaults; a project overrides it in its own module.
OPTION_113 = 113
# Setting number 114 of the defaults; a project overrides it in its own module.
OPTION_114 = 114
# Setting number 115 of the defaults; a project overrides it in its own module.
OPTION_115 = 115
# Setting number 116 of the defaults; a project overrides it in its own module.
OPTION_116 = 116
# Setting number 117 of the defaults; a project overrides it in its own module.
OPTION_117 = 117
# Setting number 118 of the defaults; a project overrides it in its own module.
OPTION_118 = 118
# Setting number 119 of the defaults; a project overrides it in its own module.
OPTION_119 = 119
# Setting number 120 of the defaults; a project overrides it in its own module.
OPTION_120 = 120
# Setting number 121 of the defaults; a project overrides it in its own module.
OPTION_121 = 121
# Setting number 122 of the defaults; a project overrides it in its own module.
OPTION_122 = 122
# Setting number 123 of the defaults; a project overrides it in its own module.
OPTION_123 = 123
# Setting number 124 of the defaults; a project overrides it in its own module.
OPTION_124 = 124
# Setting number 125 of the defaults; a project overrides it in its own module.
OPTION_125 = 125
# Setting number 126 of the defaults; a project overrides it in its own module.
OPTION_126 = 126
# Setting number 127 of the defaults; a project overrides it in its own module.
OPTION_127 = 127
# Setting number 128 of the defaults; a project overrides it in its own module.
OPTION_128 = 128
# Setting number 129 of the defaults; a project overrides it in its own module.
OPTION_129 = 129
# Setting number 130 of the defaults; a project overrides it in its own module.
OPTION_130 = 130
# Setting number 131 of the defaults; a project overrides it in its own module.
OPTION_131 = 131
# Setting number 132 of the defaults; a project overrides it in its own module.
OPTION_132 = 132
# Setting number 133 of the defaults; a project overrides it in its own module.
OPTION_133 = 133
# Setting number 134 of the defaults; a project overrides it in its own module.
OPTION_134 = 134
# Setting number 135 of the defaults; a project overrides it in its own module.
OPTION_135 = 135
# Setting number 136 of the defaults; a project overrides it in its own module.
OPTION_136 = 136
# Setting number 137 of the defaults; a project overrides it in its own module.
OPTION_137 = 137
# Setting number 138 of the defaults; a project overrides it in its own module.
OPTION_138 = 138
# Setting number 139 of the defaults; a project overrides it in its own module.
OPTION_139 = 139
# Setting number 140 of the defaults; a project overrides it in its own module.
OPTION_140 = 140
